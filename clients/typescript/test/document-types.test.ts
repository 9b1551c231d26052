/**
 * The typed client cannot drift from the API: types generated from the document a running app
 * serves (openapi-typescript) are compared by the TypeScript compiler with the client's
 * `Operations` (document-types.ts), which its methods send. A wrong client type must fail it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { REPO_ROOT, startSvc, type RunningSvc } from "@svc/testing";

let app: RunningSvc;
const dir = join(REPO_ROOT, "test-artifacts", "client-types");

beforeAll(async () => {
  app = await startSvc();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const document = await (await fetch(`${app.url}/api/openapi.json`)).json();
  writeFileSync(join(dir, "openapi.d.ts"), astToString(await openapiTS(document)));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../tsconfig.json", include: ["*.ts"], exclude: [] }));
});
afterAll(() => app?.cleanup());

// By absolute path: the generated files live in test-artifacts/, outside every package.
const mismatchesModule = join(import.meta.dir, "document-types");
const header = `import type { paths } from "./openapi";
import type { Operations } from "@svc/client";
import type { Mismatches } from "${mismatchesModule}";
`;

/** Each check is a module whose `Found` is the mismatches between the generated `paths` and a set of operations. */
const CHECKS = {
  "client-matches": { source: header, operations: "Operations" },
  "client-differs": {
    source: `${header}type Wrong = Omit<Operations, "GET /api/profiles" | "GET /api/images" | "POST /api/images/build" | "POST /api/services/{ref}/stop"> & {
  "POST /api/services/{ref}/stop": { params: { ref: string }; response: Omit<Operations["POST /api/services/{ref}/stop"]["response"], "port"> & { port: number } };
  "GET /api/profiles": { response: { name: string; schema: "local" }[] };
  "GET /api/images": { query: { all?: boolean }; response: Operations["GET /api/images"]["response"] };
  "GET /api/nothing": { response: string };
};`,
    operations: "Wrong",
  },
};

let program: ts.Program | undefined;

/** Every check in one program: the compiler reads and checks the client and the generated types once. */
function compile(): ts.Program {
  const files = Object.entries(CHECKS).map(([name, { source, operations }]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `${source}\nexport type Found = Mismatches<paths, ${operations}>;\n`);
    return file;
  });
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  return ts.createProgram(files, config.options);
}

/** The members of check `name`'s `Found`, read with the TypeScript compiler API; a check that does not compile throws. */
function mismatches(name: keyof typeof CHECKS): string[] {
  program ??= compile();
  const source = program.getSourceFile(join(dir, `${name}.ts`))!;
  const problems = ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  if (problems.length > 0) throw new Error(`${name}.ts does not compile:\n${problems.join("\n")}`);
  const checker = program.getTypeChecker();
  const found = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((symbol) => symbol.name === "Found")!;
  const type = checker.getDeclaredTypeOfSymbol(found);
  return (type.isUnion() ? type.types : type.flags & ts.TypeFlags.Never ? [] : [type]).map((member) => checker.typeToString(member).replaceAll('"', ""));
}

test("the client's operations match the types generated from the served document", async () => {
  expect(mismatches("client-matches")).toEqual([]);
}, 120_000);

test("a client type that differs from the document fails the check, naming the operation", async () => {
  expect(mismatches("client-differs").sort()).toEqual([
    "GET /api/images: the query differs",
    "GET /api/nothing: sent by the client, but not in the document",
    "GET /api/profiles: the success answer differs",
    "POST /api/images/build: in the document, but the client does not send it",
    "POST /api/services/{ref}/stop: the success answer differs",
  ]);
}, 120_000);
