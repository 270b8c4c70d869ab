import { describe, expect, it } from 'vitest';
import { uniqueName } from '../flows.ts';
import { useVeilWeb } from '../harness.ts';

/** Everything wrong a visitor can type into the sign-up and sign-in forms, and what they are told. */
describe('walk: registration and login errors (browser)', { timeout: 120_000 }, () => {
  const suite = useVeilWeb();

  it('validates the sign-up and sign-in forms with their texts', async () => {
    const page = await suite().newPage();
    await page.goto('/register');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page
      .getByLabel('Profile Picture (optional)')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByText('Please upload a valid image file.').waitFor();
    await page.getByLabel('Profile Picture (optional)').setInputFiles([]);

    // What the server would refuse is named on the form, before the recovery key is shown.
    await page.getByLabel('Username').fill('Zoë smith');
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Username must be 3-30 characters: letters, digits, "_" or "-"').waitFor();
    await page.getByText('Password must be at least 8 characters').waitFor();
    expect(await page.getByText(/recovery key/i).count()).toBe(0);

    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByLabel('Username').fill(uniqueName('nobody'));
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Login failed. Please check your credentials.').waitFor();
  });
});
