import { describe, expect, it } from 'vitest';
import { chatBetween, createGroupOverApi, currentUserId, uniqueName } from '../flows.ts';
import { useVeilWeb } from '../harness.ts';

/** Finding a chat in the list: by a group's name or by a member's, however it is typed. */
describe('walk: searching the chat list (browser)', { timeout: 150_000 }, () => {
  const suite = useVeilWeb();

  it("finds a group by its name and a chat by a member's, case and accents as typed", async () => {
    const { alice, bob } = await chatBetween(suite(), ['sal', 'sbo']);
    const groupName = uniqueName('Zoë’s hikers');
    await createGroupOverApi(alice.page, groupName, [await currentUserId(bob.page)]);
    const rows = alice.page.getByTestId('chat-item');
    await rows.filter({ hasText: groupName }).waitFor();
    const search = alice.page.getByLabel('Search chats');

    // A part of the group's name, in capitals, with the "ë" typed as "e" and a combining mark.
    await search.fill('ZOE\u0308’S HIKERS');
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining(groupName)]);
    // A member's name finds both chats with them, the group included.
    await search.fill(bob.name.toUpperCase());
    await expect.poll(() => rows.count()).toBe(2);
    await search.fill('nobody-here');
    await alice.page.getByText('No chats available').waitFor();
    await search.fill('');
    await expect.poll(() => rows.count()).toBe(2);
  });
});
