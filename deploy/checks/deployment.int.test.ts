import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { configVariableNames } from '@veil/app';
import { deepMerge, flagsToValues, generatedSecretStandIn, readmeInstalls } from './chart-installs.ts';

/**
 * What can be checked here without Docker, Kubernetes, helm or k6: the chart's YAML and schema,
 * that every service has a Deployment and an image, and that the chart sets what the config needs
 * (the k6 scripts: k6-scripts.int.test.ts).
 */
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const yaml = (file: string) => parse(read(file));
const chartDir = 'charts/veil';
const templates = readdirSync(path.join(root, chartDir, 'templates')).map((f) =>
  read(`${chartDir}/templates/${f}`),
);
const allTemplates = templates.join('\n');
const services = readdirSync(path.join(root, 'services'));

type ConfigVar = { requiredBy: string[] | 'all'; secret: boolean };
const configVars = JSON.parse(read('deploy/config-vars.json')) as Record<string, ConfigVar>;
delete (configVars as Record<string, unknown>).$comment;

describe('Helm chart', () => {
  const values = yaml(`${chartDir}/values.yaml`);
  const validate = new Ajv({ allErrors: true, strict: false }).compile(
    JSON.parse(read(`${chartDir}/values.schema.json`)),
  );

  it('has a Chart.yaml with switchable dependencies on NATS, Redis, MongoDB and MinIO', () => {
    const chart = yaml(`${chartDir}/Chart.yaml`);
    expect(chart.apiVersion).toBe('v2');
    const deps = Object.fromEntries(
      chart.dependencies.map((d: { name: string; condition: string }) => [d.name, d.condition]),
    );
    expect(deps).toEqual({
      nats: 'nats.enabled',
      redis: 'redis.enabled',
      mongodb: 'mongodb.enabled',
      minio: 'minio.enabled',
    });
    for (const dep of ['Nats', 'Redis', 'Mongodb', 'S3']) expect(values).toHaveProperty(`external${dep}`);
  });

  const readme = read(`${chartDir}/README.md`);
  const installs = readmeInstalls(readme);
  const jwkStandIn = '{"kty":"OKP","crv":"Ed25519","x":"stand-in"}';
  const installValues = (flags: (typeof installs)[number]['flags']) =>
    deepMerge(
      values,
      flagsToValues(flags, () => jwkStandIn),
    );
  /** The README's install without TLS, the base the cases below change one thing in. */
  const base = () => installValues(installs[0]!.flags);
  const errorsAt = () => (validate.errors ?? []).map((e) => e.instancePath);

  it('documents an install without TLS (a port-forward) and one with TLS, each with the values the chart requires', () => {
    expect(installs.map((i) => i.title)).toEqual([
      expect.stringMatching(/without TLS/i),
      expect.stringMatching(/with TLS/i),
    ]);
    for (const install of installs) {
      expect(install.chart).toBe(chartDir);
      expect(
        validate(installValues(install.flags)),
        `${install.title}: ${JSON.stringify(validate.errors)}`,
      ).toBe(true);
    }
    const [plain, tls] = installs.map((i) => installValues(i.flags));
    expect(plain.ingress.enabled).toBe(false);
    expect(plain.minio.auth.rootPassword).toBe(generatedSecretStandIn);
    expect(tls.ingress).toMatchObject({
      enabled: true,
      host: 'veil.example.com',
      tls: [{ secretName: 'veil-tls', hosts: ['veil.example.com'] }],
    });
    expect(tls.jwt).toEqual({ existingSecret: '', privateKey: jwkStandIn, publicKey: jwkStandIn });
  });

  it('has values that validate against values.schema.json with the local-cluster overrides, and rejects bad ones', () => {
    const local = deepMerge(values, yaml('deploy/skaffold/local-values.yaml'));
    expect(validate(local), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(deepMerge(base(), { config: { logLevel: 'loud' } }))).toBe(false);
    expect(validate(deepMerge(base(), { config: { logFormat: 'xml' } }))).toBe(false);
    expect(validate(deepMerge(base(), { services: { gateway: { replicas: -1 } } }))).toBe(false);
  });

  it('takes a TURN server for calls, deployed or existing, and refuses one that cannot work', () => {
    const turn = (t: object) => validate(deepMerge(base(), { turn: t }));
    const secret = 'a'.repeat(32);
    expect(
      turn({ enabled: true, publicHost: 'turn.example.org', secret }),
      JSON.stringify(validate.errors),
    ).toBe(true);
    expect(turn({ urls: ['turn:turn.example.org:3478'], secret })).toBe(true);
    expect(turn({ enabled: true, secret })).toBe(false);
    expect(turn({ enabled: true, publicHost: 'turn.example.org', secret: 'short' })).toBe(false);
    expect(turn({ urls: ['http://turn.example.org'] })).toBe(false);
    const configMap = read(`${chartDir}/templates/configmap.yaml`);
    for (const name of ['TURN_URLS', 'TURN_CREDENTIAL_TTL_SECONDS', 'TURN_RELAY_ONLY'])
      expect(configMap).toContain(`${name}:`);
    expect(read(`${chartDir}/templates/secret.yaml`)).toContain('TURN_SECRET:');
  });

  it('has a load-test profile that validates and raises every budget a load test meets', () => {
    const profile = yaml(`${chartDir}/values-load-test.yaml`);
    expect(validate(deepMerge(base(), profile)), JSON.stringify(validate.errors)).toBe(true);
    for (const key of [
      'loginAttemptsPerIp',
      'writesPerIpPerMinute',
      'writesPerUserPerMinute',
      'accessTokenTtlSeconds',
    ]) {
      expect(profile.config[key], key).toBeGreaterThan(values.config[key]);
    }
    expect(validate(deepMerge(base(), { config: { writesPerUserPerMinute: 0 } }))).toBe(false);
  });

  it('runs the bundled MongoDB as a replica set by default and points MONGODB_URL at its members', () => {
    // The read store's transactions (a projection's documents with its checkpoint) need one.
    expect(values.mongodb).toMatchObject({ architecture: 'replicaset', replicaSetName: 'rs0' });
    expect(values.mongodb.replicaCount).toBeGreaterThanOrEqual(3);
    expect(values.mongodb.arbiter.enabled).toBe(false);
    const helpers = read(`${chartDir}/templates/_helpers.tpl`);
    const mongodbUrl = helpers.match(/define "veil\.mongodbUrl"[\s\S]*?define "veil\.s3Endpoint"/)![0];
    expect(mongodbUrl).toMatch(/eq \(dig "architecture" "standalone" \.Values\.mongodb\) "replicaset"/);
    expect(mongodbUrl).toMatch(/range \$i := until \(dig "replicaCount"/);
    expect(mongodbUrl).toMatch(/printf "%s-%d\.%s:%d" \$fullname \$i \$headless \$port/);
    expect(mongodbUrl).toContain('/?replicaSet={{ dig "replicaSetName" "rs0" .Values.mongodb }}');
    expect(mongodbUrl).toContain('include "veil.checkStatefulSetName" (dict "chart" "mongodb"');
    expect(validate(deepMerge(base(), { mongodb: { replicaCount: 0 } }))).toBe(false);
    expect(validate(deepMerge(base(), { mongodb: { architecture: 'sharded' } }))).toBe(false);
    expect(validate(deepMerge(base(), { mongodb: { architecture: 'standalone' } }))).toBe(true);
  });

  it('rejects a missing or short MinIO password while the bundled MinIO is on, and the chart alone for want of one', () => {
    expect(validate(values)).toBe(false);
    expect(errorsAt()).toContain('/minio/auth/rootPassword');
    expect(validate(deepMerge(base(), { minio: { auth: { rootPassword: '' } } }))).toBe(false);
    expect(errorsAt()).toContain('/minio/auth/rootPassword');
    expect(validate(deepMerge(base(), { minio: { auth: { rootPassword: 'seven77' } } }))).toBe(false);
    expect(validate(deepMerge(base(), { minio: { auth: { rootPassword: 'eight888' } } }))).toBe(true);
    const external = {
      minio: { enabled: false, auth: { rootPassword: '' } },
      externalS3: { endpoint: 'https://s3.example.com', accessKey: 'a', secretKey: 'b' },
    };
    expect(validate(deepMerge(base(), external)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects an empty or malformed ingress host while the ingress is on', () => {
    const ingress = (over: object) => deepMerge(base(), { ingress: over });
    expect(validate(ingress({ enabled: true, host: '' }))).toBe(false);
    expect(errorsAt()).toContain('/ingress/host');
    expect(validate(ingress({ enabled: true, host: 'https://veil.example.com' }))).toBe(false);
    expect(validate(ingress({ enabled: true, host: 'Veil.example.com' }))).toBe(false);
    expect(validate(ingress({ enabled: true, host: 'veil.example.com' }))).toBe(true);
    expect(validate(ingress({ enabled: false, host: '' }))).toBe(true);
  });

  it('rejects autoscaling whose minReplicas is above maxReplicas, for every minReplicas the schema allows', () => {
    const autoscaling = (minReplicas: number, maxReplicas: number) =>
      deepMerge(base(), { services: { realtime: { autoscaling: { minReplicas, maxReplicas } } } });
    const wrong: string[] = [];
    for (let min = 1; min <= 100; min++) {
      for (const max of [1, min - 1, min, min + 1, 120]) {
        if (max < 1) continue;
        if (validate(autoscaling(min, max)) !== min <= max) wrong.push(`${min}-${max}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(validate(autoscaling(101, 200))).toBe(false);
  });

  it('takes disruption budgets as integers or percentages only', () => {
    for (const key of ['maxUnavailable', 'minAvailable']) {
      const budget = (value: unknown) => deepMerge(base(), { podDisruptionBudget: { [key]: value } });
      for (const good of [0, 1, 3, '0%', '50%', '100%'])
        expect(validate(budget(good)), `${key}: ${good}`).toBe(true);
      for (const bad of ['lots', '1', '150%', '50 %', -1, 1.5])
        expect(validate(budget(bad)), `${key}: ${bad}`).toBe(false);
    }
  });

  it('runs NATS with JetStream on file storage, synced on every write', () => {
    expect(values.nats.config.jetstream).toMatchObject({
      enabled: true,
      fileStore: { enabled: true },
      merge: { sync_interval: 'always' },
    });
  });

  it('has a Deployment, probes, a PDB for every service under services/, and HPAs for the gateways', () => {
    expect(Object.keys(values.services).sort()).toEqual([...services].sort());
    const deployments = read(`${chartDir}/templates/deployments.yaml`);
    expect(deployments).toContain('range $name, $svc := .Values.services');
    expect(deployments).toMatch(/kind: Deployment/);
    expect(deployments).toMatch(/livenessProbe:[\s\S]*\/healthz/);
    expect(deployments).toMatch(/readinessProbe:[\s\S]*\/readyz/);
    expect(deployments).toMatch(/runAsNonRoot: true/);
    expect(read(`${chartDir}/templates/pdb.yaml`)).toContain('kind: PodDisruptionBudget');
    expect(values.podDisruptionBudget).toEqual({ maxUnavailable: 1 });
    expect(read(`${chartDir}/templates/hpa.yaml`)).toContain('kind: HorizontalPodAutoscaler');
    expect(values.services.gateway.autoscaling.enabled).toBe(true);
    expect(values.services.realtime.autoscaling.enabled).toBe(true);
  });

  it('routes /api to the gateway and /socket.io to the realtime gateway with long timeouts', () => {
    const ingress = read(`${chartDir}/templates/ingress.yaml`);
    expect(ingress).toMatch(/path: \/socket\.io\s+pathType: Prefix\s+backend: .*"suffix" "realtime"/);
    expect(ingress).toMatch(/path: \/api\s+pathType: Prefix\s+backend: .*"suffix" "gateway"/);
    expect(
      Number(values.ingress.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']),
    ).toBeGreaterThanOrEqual(3600);
  });

  it("cuts object names to 63 characters after their suffix, and names dependencies by their charts' own rules", () => {
    expect(allTemplates, 'a suffix added after the name was cut').not.toMatch(
      /include "veil\.fullname"[^}]*\}\}-/,
    );
    const helpers = read(`${chartDir}/templates/_helpers.tpl`);
    expect(helpers).toMatch(
      /define "veil\.name"[\s\S]*?printf "%s-%s" \(include "veil\.fullname" \.root\) \.suffix \| trunc 63 \| trimSuffix "-"/,
    );
    expect(helpers, 'a dependency URL built from the release name').not.toMatch(/\.Release\.Name \}\}-/);
    for (const chart of ['nats', 'redis', 'mongodb', 'minio']) {
      expect(helpers).toContain(`include "veil.dependencyFullname" (dict "root" . "chart" "${chart}")`);
    }
    expect(helpers).toMatch(
      /define "veil\.dependencyFullname"[\s\S]*fullnameOverride[\s\S]*nameOverride[\s\S]*contains \$name \.root\.Release\.Name/,
    );
  });

  it('rolls the pods when the ConfigMap or the Secrets change', () => {
    const deployments = read(`${chartDir}/templates/deployments.yaml`);
    expect(deployments).toMatch(
      /checksum\/config: \{\{ include \(print \$root\.Template\.BasePath "\/configmap\.yaml"\) \$root \| sha256sum \}\}/,
    );
    expect(deployments).toMatch(
      /checksum\/secret: \{\{ include \(print \$root\.Template\.BasePath "\/secret\.yaml"\) \$root \| sha256sum \}\}/,
    );
  });

  it('renders numbers as integers and allows the origin NOTES.txt tells the operator to open', () => {
    const configmap = read(`${chartDir}/templates/configmap.yaml`);
    const numeric = Object.entries(values.config).filter(([, v]) => typeof v === 'number');
    expect(numeric.length).toBeGreaterThan(3);
    for (const [key] of numeric)
      expect(configmap, key).toMatch(new RegExp(`\\.Values\\.config\\.${key} \\| int \\| quote`));
    expect(configmap).toMatch(/ALLOWED_ORIGINS: .*default \(list \(include "veil\.publicUrl" \.\)\)/);
    expect(configmap).toMatch(/SERVED_OVER_HTTPS: \{\{ include "veil\.servedOverHttps" \. \| quote \}\}/);
    const notes = read(`${chartDir}/templates/NOTES.txt`);
    expect(notes.match(/^Open: \{\{ include "veil\.publicUrl" \. \}\}\/$/gm)).toHaveLength(2);
    expect(read(`${chartDir}/templates/_helpers.tpl`)).toMatch(
      /define "veil\.servedOverHttps"[\s\S]*?not \(empty \.Values\.ingress\.tls\)/,
    );
  });

  it('stops the render on a missing S3 secret instead of starting pods that cannot', () => {
    const secret = read(`${chartDir}/templates/secret.yaml`);
    expect(secret).toContain('S3_SECRET_KEY: {{ include "veil.s3SecretKey" . | quote }}');
    const helpers = read(`${chartDir}/templates/_helpers.tpl`);
    expect(helpers).toMatch(
      /define "veil\.s3SecretKey"[\s\S]*?required "minio\.auth\.rootPassword is required[\s\S]*?required "externalS3\.secretKey is required/,
    );
  });

  it('sets every variable a service needs, secrets through Secrets', () => {
    for (const [name, spec] of Object.entries(configVars)) {
      const needed = spec.requiredBy === 'all' || spec.requiredBy.length > 0;
      if (!needed) continue;
      expect(allTemplates, `${name} is set by the chart`).toMatch(
        new RegExp(`(^|\\s|name: )${name}[:,\\s]`, 'm'),
      );
      if (spec.secret) {
        const inSecret = read(`${chartDir}/templates/secret.yaml`).includes(`${name}:`);
        expect(inSecret, `${name} lives in a Secret`).toBe(true);
        expect(read(`${chartDir}/templates/configmap.yaml`)).not.toContain(`${name}:`);
      }
    }
  });

  it('documents every variable the config module reads, and no others', () => {
    expect(Object.keys(configVars).sort()).toEqual([...configVariableNames].sort());
  });

  it('can scrape every pod with a ServiceMonitor, off by default', () => {
    expect(values.metrics.serviceMonitor.enabled).toBe(false);
    const on = (serviceMonitor: object) => deepMerge(base(), { metrics: { serviceMonitor } });
    expect(
      validate(on({ enabled: true, labels: { release: 'kube-prometheus-stack' } })),
      JSON.stringify(validate.errors),
    ).toBe(true);
    expect(validate(on({ enabled: 'yes' }))).toBe(false);
    expect(validate(on({ interval: 'often' }))).toBe(false);

    const template = read(`${chartDir}/templates/servicemonitor.yaml`);
    expect(template.split('\n')[0]).toBe('{{- if .Values.metrics.serviceMonitor.enabled }}');
    // The manifests with the template's own lines dropped and every expression a placeholder.
    const manifests = parseAllDocuments(
      template
        .split('\n')
        .filter((line) => !line.trim().startsWith('{{'))
        .join('\n')
        .replaceAll(/\{\{[^}]*\}\}/g, 'X'),
    ).map((doc) => doc.toJS());
    const service = manifests.find((m) => m.kind === 'Service');
    const monitor = manifests.find((m) => m.kind === 'ServiceMonitor');
    expect(service.spec.clusterIP).toBe('None');
    // Every Veil pod, not one component's: the selector names the chart and the release only.
    expect(Object.keys(service.spec.selector).sort()).toEqual([
      'app.kubernetes.io/instance',
      'app.kubernetes.io/name',
    ]);
    expect(template).toMatch(
      /selector:\s+app\.kubernetes\.io\/name: \{\{ \.Chart\.Name \}\}\s+app\.kubernetes\.io\/instance: \{\{ \.Release\.Name \}\}/,
    );
    expect(service.spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 'http' }]);
    expect(read(`${chartDir}/templates/deployments.yaml`)).toContain('{ name: http, containerPort: 8080 }');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.spec.selector.matchLabels['app.kubernetes.io/component']).toBe(
      service.metadata.labels['app.kubernetes.io/component'],
    );
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'http', path: '/metrics' })]);
    expect(monitor.spec.podTargetLabels).toEqual(['app.kubernetes.io/component']);
    expect(template).toContain('toYaml . | nindent 4');
  });

  it('has NOTES.txt and a README with a values table', () => {
    expect(read(`${chartDir}/templates/NOTES.txt`)).toMatch(/ingress\.host|port-forward/);
    for (const key of [
      'image.repository',
      'ingress.enabled',
      'nats.enabled',
      'externalNats.url',
      'jwt.existingSecret',
      'metrics.serviceMonitor.enabled',
    ]) {
      expect(readme).toContain(key);
    }
  });
});

/** Every `veil_` metric the code declares (through the Metrics port), from the sources. */
const declaredMetrics = (): Set<string> => {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.includes('.test.')) {
        for (const [, name] of read(file).matchAll(/name: '(veil_[a-z_]+)'/g)) names.add(name!);
      }
    }
  };
  for (const dir of ['apps', 'packages', 'services']) walk(dir);
  return names;
};

describe('Grafana dashboard and the operations guide', () => {
  const declared = declaredMetrics();
  const dashboard = JSON.parse(read('deploy/grafana/veil.json'));
  const panels = dashboard.panels.filter((p: { type: string }) => p.type !== 'row');
  const exprs: string[] = panels.flatMap((p: { targets: { expr: string }[] }) =>
    p.targets.map((t) => t.expr),
  );
  const charted = new Set(exprs.flatMap((expr) => [...expr.matchAll(/\b(veil_[a-z_]+)/g)].map((m) => m[1]!)));
  const family = (series: string) => series.replace(/_(bucket|count|sum)$/, '');

  it('finds the metrics it expects in the code', () => {
    expect(declared.size).toBeGreaterThanOrEqual(11);
    expect(declared).toContain('veil_parked_events_total');
  });

  it('charts every declared metric, and only declared ones', () => {
    for (const series of charted) expect(declared, `${series} is declared`).toContain(family(series));
    const chartedFamilies = new Set([...charted].map(family));
    for (const name of declared) expect(chartedFamilies, `${name} is on the dashboard`).toContain(name);
  });

  it('is a Grafana dashboard on a Prometheus data source variable, with unique panel ids that do not overlap', () => {
    expect(dashboard).toMatchObject({
      uid: expect.any(String),
      title: 'Veil',
      schemaVersion: expect.any(Number),
    });
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    const ids = dashboard.panels.map((p: { id: number }) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const { gridPos } of dashboard.panels as {
      gridPos: { x: number; y: number; w: number; h: number };
    }[]) {
      expect(gridPos.x + gridPos.w).toBeLessThanOrEqual(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++)
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`), `panels overlap at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
    }
    for (const panel of panels) expect(panel.datasource.uid).toBe('${datasource}');
    // Balanced brackets: a typo in a query shows up here rather than as an empty panel.
    for (const expr of exprs) {
      for (const [open, close] of ['()', '{}', '[]'])
        expect(expr.split(open!).length, expr).toBe(expr.split(close!).length);
    }
  });

  it('has every declared metric described in docs/operations.md, which the README points to', () => {
    const guide = read('docs/operations.md');
    for (const name of declared) expect(guide, `${name} is described`).toContain(`\`${name}\``);
    expect(read('README.md')).toContain('docs/operations.md');
  });
});

describe('images and skaffold', () => {
  it('builds the one image the chart deploys, from the repo Dockerfile, with a dev sync profile', () => {
    const skaffold = yaml('skaffold.yaml');
    const images = skaffold.build.artifacts.map((a: { image: string }) => a.image);
    expect(images).toEqual([yaml(`${chartDir}/values.yaml`).image.repository]);
    expect(existsSync(path.join(root, skaffold.build.artifacts[0].docker.dockerfile))).toBe(true);
    expect(skaffold.manifests.helm.releases[0].chartPath).toBe(chartDir);
    expect(skaffold.profiles.map((p: { name: string }) => p.name)).toContain('dev');
  });

  it('has a multi-stage, non-root Dockerfile with a health check, built from the lockfile', () => {
    const dockerfile = read('deploy/docker/Dockerfile');
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^USER node/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
    expect(read('.dockerignore')).toMatch(/node_modules/);
  });
});
