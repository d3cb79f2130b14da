/**
 * The shell commands of the README's fenced `sh` blocks, as a reader would type them: one per
 * line (a heredoc with its body is one command), `a && b` as two, trailing comments removed.
 */

/** One command and the block it came from (1-based, in README order). */
export interface ReadmeCommand {
  readonly block: number;
  readonly command: string;
}

const FENCE_OPEN = /^\s*```sh\s*$/;
const FENCE_CLOSE = /^\s*```\s*$/;
const HEREDOC = /<<'?(\w+)'?/;

/** Strips a trailing comment: a `#` after two or more spaces, as the README writes them. */
function withoutComment(line: string): string {
  return line.replace(/\s{2,}#.*$/, "").trim();
}

export function readmeCommands(markdown: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  const lines = markdown.split("\n");
  let block = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE_OPEN.test(lines[i] as string)) continue;
    block++;
    for (i++; i < lines.length && !FENCE_CLOSE.test(lines[i] as string); i++) {
      const line = withoutComment((lines[i] as string).trim());
      if (line === "" || line.startsWith("#")) continue;
      const heredoc = HEREDOC.exec(line);
      if (heredoc) {
        const body: string[] = [line];
        for (i++; i < lines.length && (lines[i] as string).trim() !== heredoc[1]; i++) {
          body.push(lines[i] as string);
        }
        body.push(heredoc[1] as string);
        out.push({ block, command: body.join("\n") });
        continue;
      }
      for (const part of line.split(" && ")) out.push({ block, command: part.trim() });
    }
  }
  return out;
}
