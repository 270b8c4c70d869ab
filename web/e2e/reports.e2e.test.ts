import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  chatBetween,
  login,
  messageWithText,
  openMessageMenu,
  sameUserElsewhere,
  sendMessage,
  signUpAndLogIn,
  uniqueName,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';

/**
 * Abuse reports between real browsers, each person in a context of their own: a member reports
 * a message from its menu, the server checks it against what the sender signed, and an operator
 * (named in the server's configuration) reads the verified text and suspends the account, which
 * is logged out of every browser and cannot log in until unsuspended.
 */
describe('reports and operators (browser)', { timeout: 240_000 }, () => {
  const operatorName = uniqueName('rop');
  const veilWeb = useVeilWeb({ env: { VEIL_OPERATORS: operatorName } });
  let recoveryKey: string | null = null;

  /**
   * The operator (signed up by the first test that needs one; later tests restore the account's
   * key in a browser of their own), on the operator page.
   */
  const operator = async () => {
    let page: Page;
    if (recoveryKey) page = await sameUserElsewhere(veilWeb(), { name: operatorName, recoveryKey });
    else {
      page = await veilWeb().newPage();
      recoveryKey = await signUpAndLogIn(page, operatorName);
    }
    await page.getByRole('link', { name: 'Operator' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    return page;
  };

  const openReportDialog = async (page: Page, text: string) => {
    const menu = await openMessageMenu(messageWithText(page, text));
    await menu.getByRole('menuitem', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this message' });
    await dialog.waitFor();
    return dialog;
  };
  /** Sends the report in `dialog`, waits until it is filed, and closes the dialog. */
  const sendReport = async (dialog: Locator) => {
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog
      .getByRole('status')
      .getByText('Reported. The operators of this server will review it.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  };

  it('verifies a report of a real message, with the message before it, and shows it on the operator page', async () => {
    const { alice, bob } = await chatBetween(veilWeb(), ['rma', 'rbo']);
    await sendMessage(alice.page, 'I saw you today');
    await sendMessage(alice.page, 'You will regret this');
    await messageWithText(bob.page, 'You will regret this').waitFor();

    // Bob's own messages are not his to report; Alice's are.
    await sendMessage(bob.page, 'Leave me alone');
    const own = await openMessageMenu(messageWithText(bob.page, 'Leave me alone'));
    expect(await own.getByRole('menuitem', { name: 'Report' }).count()).toBe(0);
    await bob.page.keyboard.press('Escape');

    const dialog = await openReportDialog(bob.page, 'You will regret this');
    await dialog.getByRole('radio', { name: 'Threats or violence' }).check();
    const earlier = dialog.getByRole('checkbox', { name: /^Include the \d+ messages? before it$/ });
    expect(await earlier.isChecked()).toBe(true);
    await sendReport(dialog);

    const page = await operator();
    const report = page.getByTestId('report').filter({ hasText: `${alice.name}, reported by ${bob.name}` });
    await report.waitFor();
    const lines = await report.getByTestId('reported-message').allInnerTexts();
    expect(lines.at(-1)).toBe(`${alice.name} You will regret this`);
    expect(lines).toContain(`${alice.name} I saw you today`);
    expect(await report.innerText()).toContain('Threats or violence');

    // Anyone else is told the page is not theirs, and has no link to it.
    await bob.page.goto('/operator');
    await bob.page.getByText('This page is for the operators of this server.').waitFor();
    expect(await bob.page.getByRole('link', { name: 'Operator' }).count()).toBe(0);
  });

  it('verifies a report of an edited message against its last edit, live and after a reload, and tells the operator it was edited', async () => {
    const { alice, bob } = await chatBetween(veilWeb(), ['rea', 'reb']);
    await sendMessage(alice.page, 'See you at the party');
    await messageWithText(bob.page, 'See you at the party').waitFor();
    await (
      await openMessageMenu(messageWithText(alice.page, 'See you at the party'))
    )
      .getByRole('menuitem', { name: 'Edit' })
      .click();
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('You will not leave the party');
    await editor.press('Enter');

    // The edit arrives live, with the franking key of its own text: that is what a report reveals.
    const edited = messageWithText(bob.page, 'You will not leave the party');
    await edited.getByText('edited', { exact: true }).waitFor();
    for (const reload of [false, true]) {
      if (reload) {
        await bob.page.reload();
        await edited.getByText('edited', { exact: true }).waitFor();
      }
      const dialog = await openReportDialog(bob.page, 'You will not leave the party');
      await sendReport(dialog);
    }

    const page = await operator();
    const reports = page.getByTestId('report').filter({ hasText: `${alice.name}, reported by ${bob.name}` });
    await expect.poll(() => reports.count()).toBe(2);
    for (const report of await reports.all()) {
      const reported = report.getByTestId('reported-message').last();
      expect(await reported.innerText()).toMatch(
        new RegExp(
          `^${alice.name} You will not leave the party \\(edited .+: this is the text of its last edit\\)$`,
        ),
      );
      await reported.getByTestId('reported-edited').waitFor();
    }
  });

  it('refuses a report whose text or franking key was altered on the way, and files nothing', async () => {
    const { alice, bob } = await chatBetween(veilWeb(), ['rfa', 'rfb']);
    await sendMessage(alice.page, 'Meet me at the station');
    await messageWithText(bob.page, 'Meet me at the station').waitFor();

    // Bob's browser, tampered with: what it sends is not what Alice sealed.
    const alter = async (change: (body: Record<string, unknown>) => void) => {
      await bob.page.unroute('**/api/v1/message/*/report');
      await bob.page.route('**/api/v1/message/*/report', (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
        change(body);
        return route.continue({ postData: JSON.stringify(body) });
      });
    };
    const refusal = 'This report could not be verified against the message its sender signed.';
    for (const change of [
      (body: Record<string, unknown>) => (body.text = 'Send me your password'),
      (body: Record<string, unknown>) =>
        (body.frankingKey = btoa(String.fromCharCode(...new Array(32).fill(7)))),
    ]) {
      await alter(change);
      const dialog = await openReportDialog(bob.page, 'Meet me at the station');
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await dialog.getByRole('alert').getByText(refusal, { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }

    const page = await operator();
    await page.getByRole('heading', { name: 'Suspended accounts' }).waitFor();
    expect(
      await page
        .getByTestId('report')
        .filter({ hasText: `reported by ${bob.name}` })
        .count(),
    ).toBe(0);
  });

  it('suspends the reported account: logged out of every browser within seconds, refused at login, and unsuspended', async () => {
    const { alice, bob } = await chatBetween(veilWeb(), ['rsa', 'rsb']);
    const aliceElsewhere = await sameUserElsewhere(veilWeb(), alice);
    await sendMessage(alice.page, 'Nobody will believe you');
    await messageWithText(bob.page, 'Nobody will believe you').waitFor();
    await sendReport(await openReportDialog(bob.page, 'Nobody will believe you'));

    const page = await operator();
    const report = page.getByTestId('report').filter({ hasText: `${alice.name}, reported by ${bob.name}` });
    page.once('dialog', (confirm) => void confirm.accept());
    await report.getByRole('button', { name: `Suspend ${alice.name}` }).click();
    await page.getByTestId('suspended-account').filter({ hasText: alice.name }).waitFor();

    // Both of Alice's browsers are signed out without doing anything.
    for (const tab of [alice.page, aliceElsewhere])
      await expect.poll(() => new URL(tab.url()).pathname, { timeout: 15_000 }).toBe('/login');
    await alice.page.getByLabel('Username').fill(alice.name);
    await alice.page.getByLabel('Password').fill('correct horse 1');
    await alice.page.getByRole('button', { name: 'Sign In' }).click();
    await alice.page
      .getByRole('alert')
      .getByText('This account has been suspended by the operators of this server.')
      .waitFor();
    // Her message is still in Bob's chat, as she sent it.
    await bob.page.reload();
    await messageWithText(bob.page, 'Nobody will believe you').waitFor();

    await page.getByRole('button', { name: `Unsuspend ${alice.name}` }).click();
    await page
      .getByTestId('suspended-account')
      .filter({ hasText: alice.name })
      .waitFor({ state: 'detached' });
    await login(alice.page, alice.name, 'correct horse 1');
  });
});
