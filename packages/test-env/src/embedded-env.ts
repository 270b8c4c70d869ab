/**
 * Veil picks its adapters by which of these are set, and the test runner sets NATS_URL and
 * REDIS_URL for its own servers: a Veil process a test or the bench starts gets them only from
 * its caller (the cluster passes its own), never by inheritance.
 */
const runModeVariables = ['NATS_URL', 'REDIS_URL', 'MONGODB_URL', 'S3_ENDPOINT'];

/** This process's environment without the variables that choose Veil's run mode. */
export const embeddedEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !runModeVariables.includes(name)));
