// Starts `allfours lsp` (or the command in the afn.server.command setting) for AFN files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("afn")
    .get("server.command", ["allfours", "lsp"]);
  client = new LanguageClient(
    "afn",
    "AFN language server",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "afn" }, { scheme: "untitled", language: "afn" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
