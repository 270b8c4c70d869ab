import { describe } from 'vitest';
import { metricsSuite } from './suites/metrics.suite.ts';

describe('metrics (embedded)', () => metricsSuite('embedded'));
