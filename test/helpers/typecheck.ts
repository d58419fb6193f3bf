/**
 * Type-checks files as a strict TypeScript project would, through the compiler's API (no child
 * process). TypeScript's own lib files are not checked (skipDefaultLibCheck): they are the
 * compiler's, and checking them cost four fifths of each call; the files given and the
 * declarations they import (types/index.d.ts) are.
 */
import ts from 'typescript';

/** Every diagnostic of the files, as `file:line: message`; none when they type-check. */
export function typeErrors(files: readonly string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [], skipDefaultLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
