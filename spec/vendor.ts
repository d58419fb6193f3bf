/**
 * The spec writes `service` where the real platform writes its own name.
 * Every header and media-type name that carries the vendor word is built here, once.
 */
export type VendorWord = string;

export interface VendorNames {
  word: VendorWord;
  apiVersionHeader: string;
  apiVersionSelectedHeader: string;
  ssoHeader: string;
  acceptedPermissionsHeader: string;
  mediaTypeHeader: string;
  /** Recommended media type, e.g. application/vnd.service+json. */
  mediaType: string;
  /** Older media type, e.g. application/vnd.service.v3+json. */
  mediaTypeV3: string;
  /** Opt-in for text-match metadata on search results. */
  textMatchMediaType: string;
  textMatchMediaTypeV3: string;
}

/** A vendor word: lowercase letters, digits and dashes (service, github). */
export const VENDOR_WORD = /^[a-z][a-z0-9-]*$/;

const DISPLAY: Record<string, string> = { service: 'Service', github: 'GitHub' };

export function vendorNames(word: VendorWord = 'service'): VendorNames {
  if (!VENDOR_WORD.test(word)) throw new Error(`invalid vendor word "${word}" (lowercase letters, digits, dashes)`);
  const display = DISPLAY[word] ?? word.charAt(0).toUpperCase() + word.slice(1);
  return {
    word,
    apiVersionHeader: `X-${display}-Api-Version`,
    apiVersionSelectedHeader: `X-${display}-Api-Version-Selected`,
    ssoHeader: `X-${display}-SSO`,
    acceptedPermissionsHeader: `X-Accepted-${display}-Permissions`,
    mediaTypeHeader: `X-${display}-Media-Type`,
    mediaType: `application/vnd.${word}+json`,
    mediaTypeV3: `application/vnd.${word}.v3+json`,
    textMatchMediaType: `application/vnd.${word}.text-match+json`,
    textMatchMediaTypeV3: `application/vnd.${word}.v3.text-match+json`,
  };
}
