// Validates rendered Kubernetes manifests strictly against the API schemas
// that the `kubernetes-models` packages ship (kubeconform cannot download its
// schemas here). Two passes over every object:
//  1. the package's JSON-schema validator (types, formats, required fields);
//  2. TypeScript's checker on the object as a literal of the model's type,
//     which rejects unknown fields anywhere in the object (the schemas' own
//     validators let extra properties through) and wrong types.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** The objects of a multi-document YAML stream (empty documents dropped). */
export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null && typeof o === 'object');
}

/** The models' module: core `v1`, a group's `group/version`, or Prometheus Operator's CRDs. */
function modelModule(apiVersion: string): string {
  return apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : `kubernetes-models/${apiVersion}`;
}

const label = (o: K8sObject) => `${o.kind}/${o.metadata?.name ?? '?'}`;

/** Every problem found, as "Kind/name: message"; empty when all objects are valid. */
export async function validateManifests(objects: K8sObject[]): Promise<string[]> {
  const errors: string[] = [];
  const typed: Array<{ object: K8sObject; module: string }> = [];
  for (const object of objects) {
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
      errors.push(`${label(object)}: apiVersion and kind are required`);
      continue;
    }
    const module = modelModule(object.apiVersion);
    let models: Record<string, unknown>;
    try {
      models = (await import(module)) as Record<string, unknown>;
    } catch {
      errors.push(`${label(object)}: unknown apiVersion ${object.apiVersion}`);
      continue;
    }
    const Model = models[object.kind] as (new (data: unknown) => { validate(): void }) | undefined;
    if (typeof Model !== 'function') {
      errors.push(`${label(object)}: unknown kind ${object.kind} in ${object.apiVersion}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      errors.push(`${label(object)}: ${(error as Error).message}`);
    }
    typed.push({ object, module });
  }
  errors.push(...typeCheck(typed));
  return errors;
}

function typeCheck(objects: Array<{ object: K8sObject; module: string }>): string[] {
  if (objects.length === 0) return [];
  const file = join(repoRoot, '.k8s-manifests-check.ts');
  const imports = new Map<string, string>();
  const lines: string[] = [];
  const owners: Array<{ start: number; object: K8sObject }> = [];
  objects.forEach(({ object, module }, i) => {
    const alias = `T${imports.size}`;
    const key = `${module}#${object.kind}`;
    if (!imports.has(key)) imports.set(key, alias);
    owners.push({ start: lines.length, object });
    lines.push(`export const o${i}: ${imports.get(key)} = ${JSON.stringify(object, null, 1)};`);
  });
  const header = [...imports].map(([key, alias]) => {
    const [module, kind] = key.split('#');
    // The model's own declaration file, not the version's index (hundreds of files).
    return `import type { I${kind} as ${alias} } from '${module}/${kind}';`;
  });
  const source = [...header, ...lines].join('\n');
  const offset = header.length;
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const sourceFile = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, sourceFile).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.start === undefined) return text;
    const line = sourceFile.getLineAndCharacterOfPosition(d.start).line;
    // Which object the line belongs to: objects span consecutive lines after the imports.
    const startLines = owners.map((_, i) => sourceFile.getLineAndCharacterOfPosition(sourceFile.text.indexOf(`export const o${i}:`)).line);
    let owner = 0;
    for (let i = 0; i < startLines.length; i += 1) if (startLines[i]! <= line) owner = i;
    const near = sourceFile.text.split('\n')[line]?.trim().slice(0, 80);
    return `${label(owners[owner]!.object)}: ${text} (at ${near}) [line ${line - offset}]`;
  });
}
