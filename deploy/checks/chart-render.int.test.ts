import { execFile } from 'node:child_process';
import { accessSync, constants, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readmeInstalls, type ReadmeInstall } from './chart-installs.ts';

/**
 * The chart rendered by helm itself: `helm lint` and `helm template` for the README's installs,
 * the skaffold values, all-external dependencies and a 50-character release name, the rendered
 * objects checked against each other (what points at what), and kubeconform's check against the
 * Kubernetes schemas. It needs helm (and kubeconform) on PATH and the network for the dependency
 * charts and the schemas: CI elsewhere, a contributor's laptop. Without helm it says so and skips.
 */
const root = path.resolve(import.meta.dirname, '../..');
const chart = 'charts/veil';

const onPath = (program: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
const helmFound = onPath('helm');
const kubeconformFound = onPath('kubeconform');
if (!helmFound)
  console.log(
    'chart render: skipped: helm is not on PATH (helm lint, helm template and kubeconform run where it is)',
  );
else if (!kubeconformFound)
  console.log(
    'chart render: kubeconform is not on PATH: rendered objects are not checked against the Kubernetes schemas',
  );

interface Run {
  code: number;
  output: string;
  stdout: string;
}
const run = (program: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
  new Promise<Run>((resolve) => {
    execFile(
      program,
      args,
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) || 1 : 0, output: `${stdout}\n${stderr}`, stdout }),
    );
  });

type K8sObject = {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: any;
};
const parseObjects = (text: string): K8sObject[] =>
  parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => !!o);

const readme = readFileSync(path.join(root, chart, 'README.md'), 'utf8');
const installs = readmeInstalls(readme);
const plainInstall = installs.find((i) => /without TLS/i.test(i.title))!;
const tlsInstall = installs.find((i) => /with TLS/i.test(i.title) && i !== plainInstall)!;
const argsOf = (install: ReadmeInstall, leaveOut?: string) =>
  install.flags.filter((f) => f.key !== leaveOut).flatMap((f) => [`--${f.kind}`, `${f.key}=${f.value}`]);
const set = (values: Record<string, string | number | boolean>) =>
  Object.entries(values).flatMap(([k, v]) => ['--set', `${k}=${v}`]);

const externalServers = {
  'externalNats.url': 'nats://nats.example.internal:4222',
  'externalRedis.url': 'redis://redis.example.internal:6379',
  'externalMongodb.url': 'mongodb://mongodb.example.internal:27017',
  'externalS3.endpoint': 'https://s3.example.com',
};
const allExternal = set({
  'nats.enabled': false,
  'redis.enabled': false,
  'mongodb.enabled': false,
  'minio.enabled': false,
  ...externalServers,
  'externalS3.accessKey': 'veil',
  'externalS3.secretKey': 'an-external-secret',
});
/** Helm's longest names are 53 characters; 50 leaves the chart's own suffixes past 63. */
const longRelease = 'a-release-name-with-fifty-characters-for-the-check';
const renamedDependencies = set({
  'nats.fullnameOverride': 'chat-bus',
  'redis.fullnameOverride': 'chat-cache',
  'mongodb.fullnameOverride': 'chat-reads',
  'minio.fullnameOverride': 'chat-blobs',
});

interface Case {
  name: string;
  release: string;
  args: string[];
  /** ALLOWED_ORIGINS as rendered */
  origins: string;
  /** The Ingress's host; none without an Ingress. */
  host?: string;
  https: boolean;
  external?: boolean;
}
const cases: Case[] = [
  {
    name: `README: ${plainInstall.title}`,
    release: plainInstall.release,
    args: argsOf(plainInstall),
    origins: 'http://localhost:8080',
    https: false,
  },
  {
    name: `README: ${tlsInstall.title}`,
    release: tlsInstall.release,
    args: argsOf(tlsInstall),
    origins: 'https://veil.example.com',
    host: 'veil.example.com',
    https: true,
  },
  {
    name: 'the skaffold values',
    release: 'veil',
    args: ['-f', path.join(root, 'deploy/skaffold/local-values.yaml')],
    origins: 'http://localhost:8080,http://veil.local',
    host: 'veil.local',
    https: false,
  },
  {
    name: 'all-external dependencies',
    release: 'veil',
    args: [...argsOf(plainInstall), ...allExternal],
    origins: 'http://localhost:8080',
    https: false,
    external: true,
  },
  {
    name: "a release name that contains a dependency chart's name",
    release: 'team-redis',
    args: argsOf(plainInstall),
    origins: 'http://localhost:8080',
    https: false,
  },
  {
    name: 'a 50-character release name, the bundled charts renamed',
    release: longRelease,
    args: [...argsOf(tlsInstall), ...renamedDependencies],
    origins: 'https://veil.example.com',
    host: 'veil.example.com',
    https: true,
  },
  {
    name: 'a 50-character release name, all-external dependencies',
    release: longRelease,
    args: [...argsOf(tlsInstall), ...allExternal],
    origins: 'https://veil.example.com',
    host: 'veil.example.com',
    https: true,
    external: true,
  },
];

/** Values that must stop the render, and what the message names. */
const refusals = [
  {
    name: 'no MinIO password',
    release: 'veil',
    args: argsOf(plainInstall, 'minio.auth.rootPassword'),
    says: /rootPassword/,
  },
  {
    name: 'a MinIO password under 8 characters',
    release: 'veil',
    args: [...argsOf(plainInstall), ...set({ 'minio.auth.rootPassword': 'short' })],
    says: /rootPassword/,
  },
  {
    name: 'an empty ingress host',
    release: 'veil',
    args: [...argsOf(tlsInstall), '--set', 'ingress.host='],
    says: /host/,
  },
  {
    name: 'autoscaling with minReplicas above maxReplicas',
    release: 'veil',
    args: [
      ...argsOf(plainInstall),
      ...set({
        'services.gateway.autoscaling.minReplicas': 5,
        'services.gateway.autoscaling.maxReplicas': 3,
      }),
    ],
    says: /maxReplicas/,
  },
  {
    name: 'a disruption budget that is not a number or a percentage',
    release: 'veil',
    args: [...argsOf(plainInstall), ...set({ 'podDisruptionBudget.maxUnavailable': 'lots' })],
    says: /maxUnavailable/,
  },
  {
    name: 'a 50-character release name with the bundled NATS and Redis',
    release: longRelease,
    args: argsOf(tlsInstall),
    says: /fullnameOverride/,
  },
];

const ours = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/name'] === 'veil';
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/**
 * The bundled MongoDB runs as a replica set: MONGODB_URL names the set and each member as
 * "<pod>.<headless Service>:<port>", every pod one the StatefulSet behind that Service runs.
 */
const checkReplicaSetUrl = (
  url: string,
  services: Map<string, K8sObject>,
  statefulSets: Map<string, K8sObject>,
) => {
  const match = /^mongodb:\/\/([^/]+)\/\?replicaSet=([A-Za-z0-9_-]+)$/.exec(url);
  expect(match, `MONGODB_URL ${url}`).not.toBeNull();
  const members = match![1]!.split(',');
  expect(members.length, url).toBeGreaterThanOrEqual(1);
  for (const member of members) {
    const [, pod, service, port] = /^([^.:]+)\.([^.:]+):(\d+)$/.exec(member) ?? [];
    expect(pod && service, `member ${member}`).toBeTruthy();
    const headless = services.get(service!);
    expect(headless?.spec.clusterIP, `headless Service ${service}`).toBe('None');
    expect(
      headless!.spec.ports.some((p: { port: number }) => p.port === Number(port)),
      member,
    ).toBe(true);
    const [, set, ordinal] = /^(.+)-(\d+)$/.exec(pod!) ?? [];
    const statefulSet = statefulSets.get(set!);
    expect(statefulSet?.spec.serviceName, `StatefulSet ${set}`).toBe(service);
    expect(Number(ordinal), member).toBeLessThan(statefulSet!.spec.replicas);
  }
  const statefulSet = statefulSets.get(/^(.+)-\d+\./.exec(members[0]!)![1]!)!;
  expect(statefulSet.spec.template.spec.containers[0].env, 'the replica set name').toContainEqual(
    expect.objectContaining({ name: 'MONGODB_REPLICA_SET_NAME', value: match![2] }),
  );
};

/** Every reference in Veil's objects leads to a rendered object, and the values came out as the case expects. */
const checkObjects = (objects: K8sObject[], c: Case) => {
  const named = (kind: string) =>
    new Map(objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));
  const services = named('Service');
  const deployments = [...named('Deployment').values()].filter(ours);
  const servicePort = (host: string, port: number) =>
    services.get(host)?.spec.ports.some((p: { port: number }) => p.port === port)
      ? `${host}:${port}`
      : `no Service ${host} with port ${port}`;

  for (const o of objects)
    expect(o.metadata.name.length, `${o.kind} ${o.metadata.name}`).toBeLessThanOrEqual(63);
  for (const name of services.keys()) expect(name).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);

  const configMap = [...named('ConfigMap').values()].find(ours)!;
  const secrets = [...named('Secret').values()].filter(ours);
  const settings = configMap.data as Record<string, string>;
  const secretValues = Object.assign({}, ...secrets.map((s) => s.stringData)) as Record<string, string>;
  expect(settings.ALLOWED_ORIGINS).toBe(c.origins);
  expect(settings.SERVED_OVER_HTTPS).toBe(String(c.https));
  for (const key of [
    'ACCESS_TOKEN_TTL_SECONDS',
    'REFRESH_TOKEN_TTL_SECONDS',
    'RPC_TIMEOUT_MS',
    'PRESENCE_TTL_SECONDS',
    'TRUST_PROXY_HOPS',
  ]) {
    expect(settings[key], key).toMatch(/^\d+$/);
  }
  expect(secretValues.S3_SECRET_KEY).toBeTruthy();

  const urls = {
    NATS_URL: settings.NATS_URL!,
    REDIS_URL: secretValues.REDIS_URL!,
    MONGODB_URL: secretValues.MONGODB_URL!,
    S3_ENDPOINT: settings.S3_ENDPOINT!,
  };
  if (c.external) {
    expect(Object.values(urls)).toEqual(Object.values(externalServers));
  } else {
    const { MONGODB_URL, ...singleHost } = urls;
    for (const [variable, url] of Object.entries(singleHost)) {
      const { hostname, port } = new URL(url);
      expect(servicePort(hostname, Number(port)), `${variable} ${url}`).toBe(`${hostname}:${port}`);
    }
    checkReplicaSetUrl(MONGODB_URL, services, named('StatefulSet'));
  }

  expect(deployments.map((d) => d.metadata.labels!['app.kubernetes.io/component']).sort()).toEqual([
    'auth',
    'chat',
    'gateway',
    'message',
    'realtime',
    'user',
  ]);
  for (const deployment of deployments) {
    const pod = deployment.spec.template;
    expect(pod.metadata.annotations).toMatchObject({
      'checksum/config': expect.stringMatching(/^[0-9a-f]{64}$/),
      'checksum/secret': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const container = pod.spec.containers[0];
    for (const source of container.envFrom) {
      if (source.configMapRef) expect(source.configMapRef.name).toBe(configMap.metadata.name);
      if (source.secretRef)
        expect(named('Secret').has(source.secretRef.name), source.secretRef.name).toBe(true);
    }
    for (const variable of container.env) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref)
        expect(
          named('Secret').get(ref.name)?.stringData[ref.key],
          `${variable.name} from ${ref.name}`,
        ).toBeTruthy();
    }
    const upstreams = container.env.find((v: { name: string }) => v.name === 'REALTIME_UPSTREAMS');
    if (upstreams) {
      const { hostname } = new URL(upstreams.value);
      expect(servicePort(hostname, 80)).toBe(`${hostname}:80`);
    }
  }
  const podsOf = (selector: Record<string, string>) =>
    deployments.filter((d) => matches(selector, d.spec.template.metadata.labels));

  for (const service of [...services.values()].filter(ours))
    expect(podsOf(service.spec.selector), service.metadata.name).toHaveLength(1);
  const ingresses = [...named('Ingress').values()];
  expect(ingresses.map((i) => i.spec.rules[0].host)).toEqual(c.host ? [c.host] : []);
  for (const ingress of ingresses) {
    expect(!!ingress.spec.tls, 'ingress TLS').toBe(c.https);
    for (const { backend } of ingress.spec.rules[0].http.paths)
      expect(services.has(backend.service.name), backend.service.name).toBe(true);
  }
  for (const hpa of named('HorizontalPodAutoscaler').values()) {
    expect(deployments.some((d) => d.metadata.name === hpa.spec.scaleTargetRef.name)).toBe(true);
    expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
  }
  for (const pdb of [...named('PodDisruptionBudget').values()].filter(ours)) {
    expect(pdb.spec.maxUnavailable).toBe(1);
    expect(podsOf(pdb.spec.selector.matchLabels)).toHaveLength(1);
  }
};

describe.skipIf(!helmFound)('the chart rendered by helm (skipped: helm is not on PATH)', () => {
  let work: string;
  let env: NodeJS.ProcessEnv;
  const helm = (args: string[]) => run('helm', args, work, env);
  const renders = new Map<Case, Promise<Run>>();
  const render = (c: Case) => {
    if (!renders.has(c))
      renders.set(c, helm(['template', c.release, chart, '--kube-version', '1.30.0', ...c.args]));
    return renders.get(c)!;
  };

  beforeAll(async () => {
    // A copy of the chart in a scratch directory, with helm's own settings there too: the run
    // neither writes charts/veil/charts nor touches the contributor's helm repositories.
    work = mkdtempSync(path.join(os.tmpdir(), 'veil-chart-'));
    env = {
      ...process.env,
      HELM_CONFIG_HOME: path.join(work, '.helm/config'),
      HELM_CACHE_HOME: path.join(work, '.helm/cache'),
      HELM_DATA_HOME: path.join(work, '.helm/data'),
    };
    cpSync(path.join(root, chart), path.join(work, chart), { recursive: true });
    // The files the README's --set-file flags read (the chart only copies them into a Secret).
    for (const flag of installs.flatMap((i) => i.flags).filter((f) => f.kind === 'set-file')) {
      writeFileSync(path.join(work, flag.value), '{"kty":"OKP","crv":"Ed25519","x":"stand-in"}\n');
    }
    const dependencies = await helm(['dependency', 'update', chart]);
    expect(dependencies.code, dependencies.output).toBe(0);
  }, 300_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const c of cases) {
    it(`${c.name}: helm lint passes, helm template renders objects that point at each other`, async () => {
      const lint = await helm(['lint', chart, ...c.args]);
      expect(lint.code, lint.output).toBe(0);
      const rendered = await render(c);
      expect(rendered.code, rendered.output).toBe(0);
      checkObjects(parseObjects(rendered.stdout), c);
    }, 120_000);
  }

  it.skipIf(!kubeconformFound)(
    `every rendering passes kubeconform against the Kubernetes schemas${
      kubeconformFound ? '' : ' (skipped: kubeconform is not on PATH)'
    }`,
    async () => {
      for (const c of cases) {
        const rendered = await render(c);
        expect(rendered.code, rendered.output).toBe(0);
        const file = path.join(work, `${c.release}-${cases.indexOf(c)}.yaml`);
        writeFileSync(file, rendered.stdout);
        const crds =
          'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json';
        const check = await run(
          'kubeconform',
          ['-strict', '-summary', '-schema-location', 'default', '-schema-location', crds, file],
          work,
          env,
        );
        expect(check.code, `${c.name}\n${check.output}`).toBe(0);
      }
    },
    300_000,
  );

  for (const refusal of refusals) {
    it(`refuses ${refusal.name}, naming the value`, async () => {
      const rendered = await helm([
        'template',
        refusal.release,
        chart,
        '--kube-version',
        '1.30.0',
        ...refusal.args,
      ]);
      expect(rendered.code, rendered.output).not.toBe(0);
      expect(rendered.output).toMatch(refusal.says);
    }, 120_000);
  }
});
