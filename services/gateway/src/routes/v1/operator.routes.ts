import { Router } from 'express';
import { DomainError, idSchema, parseWith, reportListQuerySchema, suspendBodySchema } from '@veil/contracts';
import { currentUserId } from '../../middleware/auth.ts';
import type { OperatorRole } from '../../middleware/operator.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

/**
 * `/api/v1/operator/*` (docs/api.md, "Operators"): the reports members filed, and suspending
 * accounts. Every route but `status` answers 403 without the operator role.
 */
export const operatorRoutes = ({
  services,
  role,
}: {
  services: ServiceClients;
  role: OperatorRole;
}): Router => {
  const router = Router();

  /** Whether the caller is an operator (the web client shows the operator page to them only). */
  router.get('/status', async (_req, res) => {
    respond(res, 200, 'Role fetched', { operator: await role.isOperator(currentUserId(res)) });
  });

  router.use(role.requireOperator);

  /** The usernames of the ids given, for the operator page (an account gone reads as its id). */
  const namesOf = async (ids: Iterable<string>) => {
    const { users } = await services.user.getMany({ userIds: [...new Set(ids)] });
    return Object.fromEntries(users.map((user) => [user._id, user.username]));
  };

  router.get('/reports', async (req, res) => {
    const { status } = parseWith(reportListQuerySchema, req.query);
    const { reports } = await services.message.reports({ status });
    const users = await namesOf(
      reports.flatMap((report) => [
        report.reporterId,
        report.accusedId,
        ...report.messages.map((m) => m.senderId),
      ]),
    );
    respond(res, 200, 'Reports fetched', { reports, users });
  });

  router.post('/reports/:reportId/dismiss', async (req, res) => {
    const reportId = parseWith(idSchema, req.params.reportId);
    const { report } = await services.message.closeReport({
      reportId,
      closedBy: currentUserId(res),
      outcome: 'dismissed',
    });
    respond(res, 200, 'Report dismissed', { report });
  });

  router.get('/suspensions', async (_req, res) => {
    const { accounts } = await services.auth.suspended({});
    const users = await namesOf(accounts.map((account) => account.userId));
    respond(res, 200, 'Suspended accounts fetched', {
      accounts: accounts.map((account) => ({
        ...account,
        username: users[account.userId] ?? account.userId,
      })),
    });
  });

  /** Suspends an account, and closes the report it came from (if any) as acted on. */
  router.post('/users/:userId/suspend', async (req, res) => {
    const userId = parseWith(idSchema, req.params.userId);
    const { reportId } = parseWith(suspendBodySchema, req.body ?? {});
    const by = currentUserId(res);
    if (userId === by || (await role.isOperator(userId)))
      throw new DomainError('FORBIDDEN', 'An operator account cannot be suspended');
    await services.auth.suspend({ userId, by, ...(reportId && { reportId }) });
    if (reportId)
      await services.message
        .closeReport({ reportId, closedBy: by, outcome: 'suspended' })
        .catch((error: unknown) => {
          // Another operator closed it meanwhile: the suspension stands all the same.
          if (!(error instanceof DomainError && error.code === 'VERSION_CONFLICT')) throw error;
        });
    respond(res, 200, 'Account suspended', {});
  });

  router.post('/users/:userId/unsuspend', async (req, res) => {
    const userId = parseWith(idSchema, req.params.userId);
    await services.auth.unsuspend({ userId, by: currentUserId(res) });
    respond(res, 200, 'Account unsuspended', {});
  });

  return router;
};
