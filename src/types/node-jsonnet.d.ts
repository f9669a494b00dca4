// The binding ships types, but its package.json "exports" hides them from NodeNext
// resolution; this declares the part of the API the config loader uses.
declare module "@hanazuki/node-jsonnet" {
  export class JsonnetError extends Error {}
  export class Jsonnet {
    addJpath(path: string): this;
    evaluateFile(filename: string): Promise<string>;
    evaluateSnippet(snippet: string, filename?: string): Promise<string>;
  }
}
