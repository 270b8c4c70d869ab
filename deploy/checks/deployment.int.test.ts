import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { Server } from 'socket.io';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parse, parseAllDocuments } from 'yaml';
import { configVariableNames } from '@veil/runtime';
import { createSession, encodeEvent, parseFrame, socketIoUrl } from '../k6/lib/socketio.js';

/**
 * What can be checked here without Docker, Kubernetes, helm or k6: the chart's YAML and schema,
 * that every service has a Deployment and an image, that the chart sets what the config needs,
 * that the k6 scripts type-check, and that their Socket.IO framing works against a real server.
 */
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const yaml = (file: string) => parse(read(file));
const chartDir = 'charts/veil';
const templates = readdirSync(path.join(root, chartDir, 'templates')).map((f) => read(`${chartDir}/templates/${f}`));
const allTemplates = templates.join('\n');
const services = readdirSync(path.join(root, 'services'));

type ConfigVar = { requiredBy: string[] | 'all'; secret: boolean };
const configVars = JSON.parse(read('deploy/config-vars.json')) as Record<string, ConfigVar>;
delete (configVars as Record<string, unknown>).$comment;

const deepMerge = (base: any, over: any): any => {
  if (typeof base !== 'object' || typeof over !== 'object' || Array.isArray(over) || !base || !over) return over;
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out;
};

describe('Helm chart', () => {
  const values = yaml(`${chartDir}/values.yaml`);
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(read(`${chartDir}/values.schema.json`)));

  it('has a Chart.yaml with switchable dependencies on NATS, Redis, MongoDB and MinIO', () => {
    const chart = yaml(`${chartDir}/Chart.yaml`);
    expect(chart.apiVersion).toBe('v2');
    const deps = Object.fromEntries(chart.dependencies.map((d: { name: string; condition: string }) => [d.name, d.condition]));
    expect(deps).toEqual({ nats: 'nats.enabled', redis: 'redis.enabled', mongodb: 'mongodb.enabled', minio: 'minio.enabled' });
    for (const dep of ['Nats', 'Redis', 'Mongodb', 'S3']) expect(values).toHaveProperty(`external${dep}`);
  });

  it('has values that validate against values.schema.json, also with the local-cluster overrides', () => {
    expect(validate(values), JSON.stringify(validate.errors)).toBe(true);
    const local = deepMerge(values, yaml('deploy/skaffold/local-values.yaml'));
    expect(validate(local), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(deepMerge(values, { config: { logLevel: 'loud' } }))).toBe(false);
    expect(validate(deepMerge(values, { config: { logFormat: 'xml' } }))).toBe(false);
    expect(validate(deepMerge(values, { services: { gateway: { replicas: -1 } } }))).toBe(false);
  });

  it('runs NATS with JetStream on file storage, synced on every write', () => {
    expect(values.nats.config.jetstream).toMatchObject({ enabled: true, fileStore: { enabled: true }, merge: { sync_interval: 'always' } });
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
    expect(read(`${chartDir}/templates/hpa.yaml`)).toContain('kind: HorizontalPodAutoscaler');
    expect(values.services.gateway.autoscaling.enabled).toBe(true);
    expect(values.services.realtime.autoscaling.enabled).toBe(true);
  });

  it('routes /api to the gateway and /socket.io to the realtime gateway with long timeouts', () => {
    const ingress = read(`${chartDir}/templates/ingress.yaml`);
    expect(ingress).toMatch(/path: \/socket\.io[\s\S]*-realtime/);
    expect(ingress).toMatch(/path: \/api[\s\S]*-gateway/);
    expect(Number(values.ingress.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
  });

  it('sets every variable a service needs, secrets through Secrets', () => {
    for (const [name, spec] of Object.entries(configVars)) {
      const needed = spec.requiredBy === 'all' || spec.requiredBy.length > 0;
      if (!needed) continue;
      expect(allTemplates, `${name} is set by the chart`).toMatch(new RegExp(`(^|\\s|name: )${name}[:,\\s]`, 'm'));
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
    const on = (serviceMonitor: object) => deepMerge(values, { metrics: { serviceMonitor } });
    expect(validate(on({ enabled: true, labels: { release: 'kube-prometheus-stack' } })), JSON.stringify(validate.errors)).toBe(true);
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
    expect(Object.keys(service.spec.selector).sort()).toEqual(['app.kubernetes.io/instance', 'app.kubernetes.io/name']);
    expect(template).toMatch(/selector:\s+app\.kubernetes\.io\/name: \{\{ \.Chart\.Name \}\}\s+app\.kubernetes\.io\/instance: \{\{ \.Release\.Name \}\}/);
    expect(service.spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 'http' }]);
    expect(read(`${chartDir}/templates/deployments.yaml`)).toContain('{ name: http, containerPort: 8080 }');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.spec.selector.matchLabels['app.kubernetes.io/component']).toBe(service.metadata.labels['app.kubernetes.io/component']);
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'http', path: '/metrics' })]);
    expect(monitor.spec.podTargetLabels).toEqual(['app.kubernetes.io/component']);
    expect(template).toContain('toYaml . | nindent 4');
  });

  it('has NOTES.txt and a README with a values table', () => {
    expect(read(`${chartDir}/templates/NOTES.txt`)).toMatch(/ingress\.host|port-forward/);
    const readme = read(`${chartDir}/README.md`);
    for (const key of ['image.repository', 'ingress.enabled', 'nats.enabled', 'externalNats.url', 'jwt.existingSecret', 'metrics.serviceMonitor.enabled']) {
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
  for (const dir of ['packages', 'services']) walk(dir);
  return names;
};

describe('Grafana dashboard and the operations guide', () => {
  const declared = declaredMetrics();
  const dashboard = JSON.parse(read('deploy/grafana/veil.json'));
  const panels = dashboard.panels.filter((p: { type: string }) => p.type !== 'row');
  const exprs: string[] = panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
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
    expect(dashboard).toMatchObject({ uid: expect.any(String), title: 'Veil', schemaVersion: expect.any(Number) });
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }));
    const ids = dashboard.panels.map((p: { id: number }) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const { gridPos } of dashboard.panels as { gridPos: { x: number; y: number; w: number; h: number } }[]) {
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
      for (const [open, close] of ['()', '{}', '[]']) expect(expr.split(open!).length, expr).toBe(expr.split(close!).length);
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

describe('k6 scripts', () => {
  it('type-check against @types/k6', async () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    await expect(promisify(execFile)(process.execPath, [tsc, '-p', 'deploy/k6/tsconfig.json'], { cwd: root })).resolves.toBeDefined();
  }, 60_000);

  it('frame Socket.IO correctly against a real Socket.IO server', async () => {
    const http = createServer();
    const io = new Server(http, { transports: ['websocket'] });
    io.use((socket, next) => (socket.handshake.auth.token === 'good' ? next() : next(new Error('bad token'))));
    io.on('connection', (socket) => {
      socket.on('join chat', (chatId: string) => socket.emit('message received', { message: { _id: 'm1', chat: chatId } }));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

    const run = (token: string) =>
      new Promise<{ event?: unknown; error?: string }>((resolve) => {
        const socket = new WebSocket(socketIoUrl(base));
        const session = createSession({
          send: (text) => socket.send(text),
          auth: { token },
          onConnect: () => session.emit('join chat', 'c42'),
          onEvent: (name, args) => {
            socket.close();
            resolve({ event: { name, args } });
          },
          onError: (message) => {
            socket.close();
            resolve({ error: message });
          },
        });
        socket.on('message', (raw) => session.handle(String(raw)));
      });

    expect(await run('good')).toEqual({ event: { name: 'message received', args: [{ message: { _id: 'm1', chat: 'c42' } }] } });
    expect(await run('bad')).toEqual({ error: 'bad token' });
    expect(encodeEvent('typing', { chatId: 'c' })).toBe('42["typing",{"chatId":"c"}]');
    expect(parseFrame('2')).toEqual({ kind: 'ping' });
    io.close();
  });
});
