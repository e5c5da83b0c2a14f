import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

/*
 * Renders deploy/helm/formward with the helm that scripts/helm.sh builds and caches, and
 * reads the manifests. Without that helm the file is skipped outside CI (run
 * `bash scripts/helm.sh` once); in CI (.ci/run exports HELM) it is required.
 */
const root = path.resolve(__dirname, '../..');
const chart = path.join(root, 'deploy/helm/formward');
const everythingValues = path.join(chart, 'ci/everything-values.yaml');

function cachedHelm(): string | null {
  if (process.env.HELM && fs.existsSync(process.env.HELM)) return process.env.HELM;
  const script = fs.readFileSync(path.join(root, 'scripts/helm.sh'), 'utf8');
  const version = /^VERSION=(\S+)$/m.exec(script)?.[1];
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  const cached = path.join(cache, 'formward', `helm-${version}`, 'helm');
  return fs.existsSync(cached) ? cached : null;
}

const helm = cachedHelm();
if (!helm && process.env.CI) {
  throw new Error('CI needs helm for the chart test: .ci/run exports HELM from scripts/helm.sh');
}
if (!helm) {
  console.warn('skipping test/deploy/helm-chart.test.ts: no helm; run `bash scripts/helm.sh`');
}

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown> & {
    replicas?: number;
    template?: { spec: PodSpec };
  };
};
type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
};
type Probe = { httpGet: { path: string; port: string } };
type Container = {
  name: string;
  args: string[];
  env: EnvVar[];
  ports: { name: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext: Record<string, unknown>;
};
type PodSpec = {
  containers: Container[];
  nodeSelector?: Record<string, string>;
  tolerations?: unknown[];
  affinity?: unknown;
};

function render(...args: string[]): Manifest[] {
  const out = execFileSync(helm!, ['template', 'forms', chart, ...args], { encoding: 'utf8' });
  return parseAllDocuments(out)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((doc): doc is Manifest => doc !== null);
}

const one = (manifests: Manifest[], kind: string, name: string): Manifest => {
  const found = manifests.filter((m) => m.kind === kind && m.metadata.name === name);
  expect(found, `${kind} ${name}`).toHaveLength(1);
  return found[0]!;
};
const containerOf = (manifest: Manifest): Container => manifest.spec.template!.spec.containers[0]!;
const envOf = (manifest: Manifest) =>
  new Map(containerOf(manifest).env.map((entry) => [entry.name, entry]));

describe.skipIf(!helm)('the Helm chart', () => {
  it('refuses to render without the public URL', () => {
    const result = spawnSync(helm!, ['template', 'forms', chart], { encoding: 'utf8' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('baseUrl');
  });

  it('refuses values outside its schema', () => {
    const result = spawnSync(
      helm!,
      [
        'template',
        'forms',
        chart,
        '--set',
        'baseUrl=https://f.example',
        '--set',
        'serve.replica=2',
      ],
      { encoding: 'utf8' },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/replica/);
  });

  it('renders serve and worker apart, probed, with the migrate Job as a pre-upgrade hook', () => {
    const manifests = render('-f', everythingValues);
    const serve = one(manifests, 'Deployment', 'forms-formward-serve');
    const worker = one(manifests, 'Deployment', 'forms-formward-worker');
    expect(serve.spec.replicas).toBe(3);
    expect(worker.spec.replicas).toBe(5);
    expect(containerOf(serve).args).toEqual(['serve']);
    expect(containerOf(worker).args).toEqual(['worker']);
    expect(serve.spec.template!.spec.nodeSelector).toEqual({
      'node-role.example.com/web': 'true',
    });
    expect(serve.spec.template!.spec.tolerations).toBeUndefined();
    expect(worker.spec.template!.spec.tolerations).toHaveLength(1);
    expect(worker.spec.template!.spec.affinity).toBeDefined();
    for (const deployment of [serve, worker]) {
      const container = containerOf(deployment);
      expect(container.livenessProbe!.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.ports).toEqual([
        { name: 'http', containerPort: 3000, protocol: 'TCP' },
        { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
      ]);
      expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true });
      const env = envOf(deployment);
      expect(env.get('METRICS_HOST')?.value).toBe('0.0.0.0');
      expect(env.get('METRICS_PORT')?.value).toBe('9464');
      expect(env.get('TEMPORAL_ADDRESS')?.value).toBe('temporal-frontend.temporal.svc:7233');
      expect(env.get('TEMPORAL_TASK_QUEUE')?.value).toBe('formward-ci');
      expect(env.get('BASE_URL')?.value).toBe('https://forms.example.com');
      expect(env.get('INGEST_URL')?.value).toBe('https://ingest.example.com');
      expect(env.get('FORM_PAGES_TARGET')?.value).toBe('pages.example.com');
    }

    const migrate = one(manifests, 'Job', 'forms-formward-migrate');
    expect(containerOf(migrate).args).toEqual(['migrate']);
    expect(migrate.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(envOf(migrate).get('DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: 'formward-database',
      key: 'url',
    });
  });

  it('gives each component its own PodDisruptionBudget', () => {
    const manifests = render('-f', everythingValues);
    const serve = one(manifests, 'PodDisruptionBudget', 'forms-formward-serve');
    const worker = one(manifests, 'PodDisruptionBudget', 'forms-formward-worker');
    expect(serve.spec).toMatchObject({
      minAvailable: 2,
      selector: { matchLabels: { 'app.kubernetes.io/component': 'serve' } },
    });
    expect(worker.spec).toMatchObject({
      maxUnavailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/component': 'worker' } },
    });
  });

  it('reads every secret from existing Secrets by name and renders no secret value', () => {
    const manifests = render('-f', everythingValues);
    expect(manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
    const env = envOf(one(manifests, 'Deployment', 'forms-formward-serve'));
    const refs = Object.fromEntries(
      ['DATABASE_URL', 'APP_SECRET', 'SMTP_URL', 'OIDC_CLIENT_SECRET', 'AWS_SECRET_ACCESS_KEY'].map(
        (name) => {
          const entry = env.get(name);
          expect(entry?.value, `${name} has no literal value`).toBeUndefined();
          return [name, entry?.valueFrom?.secretKeyRef];
        },
      ),
    );
    expect(refs).toEqual({
      DATABASE_URL: { name: 'formward-database', key: 'url' },
      APP_SECRET: { name: 'formward-app', key: 'app-secret' },
      SMTP_URL: { name: 'formward-smtp', key: 'smtp-url' },
      OIDC_CLIENT_SECRET: { name: 'formward-oidc', key: 'client-secret' },
      AWS_SECRET_ACCESS_KEY: { name: 'formward-s3', key: 'secret-access-key' },
    });
  });

  it('leaves optional secrets out by default and reads the required ones from `formward`', () => {
    const manifests = render('--set', 'baseUrl=https://forms.example.com');
    const env = envOf(one(manifests, 'Deployment', 'forms-formward-worker'));
    expect(env.get('DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: 'formward',
      key: 'DATABASE_URL',
    });
    expect(env.get('APP_SECRET')?.valueFrom?.secretKeyRef).toEqual({
      name: 'formward',
      key: 'APP_SECRET',
    });
    expect(env.has('SMTP_URL')).toBe(false);
    expect(env.has('OIDC_CLIENT_SECRET')).toBe(false);
    // Without a value, FORM_PAGES_TARGET is left to its default (the ingest URL's host).
    expect(env.has('FORM_PAGES_TARGET')).toBe(false);
    expect(manifests.map((m) => m.kind).sort()).toEqual([
      'Deployment',
      'Deployment',
      'Job',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'Service',
      'Service',
      'Service',
    ]);
  });

  it('has the ServiceMonitor scrape the metrics port of serve and worker', () => {
    const manifests = render('-f', everythingValues);
    const monitor = one(manifests, 'ServiceMonitor', 'forms-formward');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.labels!.release).toBe('kube-prometheus-stack');
    const spec = monitor.spec as {
      selector: { matchLabels: Record<string, string> };
      endpoints: { port: string; path: string }[];
    };
    expect(spec.endpoints).toEqual([
      expect.objectContaining({ port: 'metrics', path: '/metrics' }),
    ]);
    const scraped = manifests.filter(
      (m) =>
        m.kind === 'Service' &&
        Object.entries(spec.selector.matchLabels).every(([k, v]) => m.metadata.labels?.[k] === v),
    );
    const components = scraped.map((service) => {
      const ports = service.spec.ports as { name: string; port: number }[];
      expect(ports).toContainEqual(expect.objectContaining({ name: 'metrics', port: 9464 }));
      return (service.spec.selector as Record<string, string>)['app.kubernetes.io/component'];
    });
    expect(components.sort()).toEqual(['serve', 'worker']);
  });

  // docs/running.md (Kubernetes): the metrics port is never on the public Service.
  it.each(['ClusterIP', 'NodePort', 'LoadBalancer'])(
    'keeps the metrics port off the public Service (service.type=%s)',
    (type) => {
      const manifests = render(
        '-f',
        everythingValues,
        '--set',
        `service.type=${type}`,
        '--set-string',
        'config.trustProxy=10.0.12.0/24',
        '--set',
        'service.port=9464',
      );
      const services = manifests.filter((m) => m.kind === 'Service');
      const publicService = one(manifests, 'Service', 'forms-formward');
      expect(publicService.spec.type).toBe(type);
      expect(publicService.spec.ports).toEqual([
        { name: 'http', port: 9464, targetPort: 'http', protocol: 'TCP' },
      ]);
      for (const component of ['serve', 'worker']) {
        const metrics = one(manifests, 'Service', `forms-formward-${component}-metrics`);
        expect(metrics.spec).toMatchObject({ type: 'ClusterIP', clusterIP: 'None' });
        expect(metrics.spec.ports).toEqual([
          { name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' },
        ]);
      }
      // Only ClusterIP Services carry it.
      const exposing = services.filter(
        (service) =>
          service.spec.type !== 'ClusterIP' &&
          (service.spec.ports as { targetPort: string }[]).some((p) => p.targetPort === 'metrics'),
      );
      expect(exposing).toEqual([]);
    },
  );

  const renderFailure = (...args: string[]) =>
    spawnSync(
      helm!,
      ['template', 'forms', chart, '--set', 'baseUrl=https://forms.example.com', ...args],
      { encoding: 'utf8' },
    );

  it.each(['NodePort', 'LoadBalancer'])(
    'refuses a hop count or `true` in trustProxy with service.type=%s',
    (type) => {
      for (const trust of ['1', '2', 'true']) {
        const result = renderFailure(
          '--set',
          `service.type=${type}`,
          '--set-string',
          `config.trustProxy=${trust}`,
        );
        expect(result.status, `trustProxy=${trust}`).not.toBe(0);
        expect(result.stderr).toContain('config.trustProxy');
        expect(result.stderr).toContain('CIDR');
      }
      for (const trust of ['10.0.12.0/24', '', 'false'])
        expect(
          renderFailure(
            '--set',
            `service.type=${type}`,
            '--set-string',
            `config.trustProxy=${trust}`,
          ).status,
          `trustProxy=${trust}`,
        ).toBe(0);
    },
  );

  it('refuses a metrics port that is the public port', () => {
    const result = renderFailure('--set', 'metrics.port=3000');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('metrics.port must differ from containerPort');
  });
});
