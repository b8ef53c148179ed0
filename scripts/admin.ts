/** `npm run admin -- …`: manage newsroom administrators (see app/.server/admins/admin-cli.server.ts). */
import readline from "node:readline";
import { CliError, type CliIO, runAdminCli } from "#app/.server/admins/admin-cli.server.ts";
import { runCommand, withCommandServices } from "#app/.server/cli.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";

/** Reads one line from the terminal; with `hidden`, what is typed is not echoed. */
function prompt(question: string, hidden: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let muted = false;
    const output = rl as unknown as { _writeToOutput?: (text: string) => void };
    const write = output._writeToOutput?.bind(rl);
    if (hidden && write) {
      output._writeToOutput = (text: string) => {
        if (!muted) write(text);
      };
    }
    rl.question(question, (answer) => {
      if (hidden) process.stdout.write("\n");
      rl.close();
      resolve(answer);
    });
    muted = hidden;
    rl.once("SIGINT", () => {
      rl.close();
      reject(new CliError(terminal.adminCli.cancelled));
    });
  });
}

async function readStdinLine(): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return "";
}

const io: CliIO = {
  interactive: Boolean(process.stdin.isTTY),
  ask: (question) => prompt(question, false),
  askHidden: (question) => prompt(question, true),
  readStdinLine,
  warn: (message) => console.error(message),
};

await runCommand(() => withCommandServices(async (services) => console.log(await runAdminCli(process.argv.slice(2), services, io))));
