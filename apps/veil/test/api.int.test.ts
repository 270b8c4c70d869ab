import { describe } from 'vitest';
import { accountsSuite } from './suites/accounts.suite.ts';
import { blockingSuite } from './suites/blocking.suite.ts';
import { chatPrefsSuite } from './suites/chat-prefs.suite.ts';
import { groupsSuite } from './suites/groups.suite.ts';
import { keyBackupSuite } from './suites/key-backup.suite.ts';
import { disappearingSuite } from './suites/disappearing.suite.ts';
import { messageChangesSuite } from './suites/message-changes.suite.ts';
import { messagingSuite } from './suites/messaging.suite.ts';
import { privacySuite } from './suites/privacy.suite.ts';
import { reportsSuite } from './suites/reports.suite.ts';
import { socketChangesSuite } from './suites/socket-changes.suite.ts';
import { socketSendSuite } from './suites/socket-send.suite.ts';
import { unreadSuite } from './suites/unread.suite.ts';

/** The whole API on the embedded app: in-process bus and RPC, on-disk log, read models in SQLite. */
describe('accounts (embedded)', () => accountsSuite());
describe('encrypted key backup (embedded)', () => keyBackupSuite());
describe('chats and messages (embedded)', () => messagingSuite());
describe('sending over the socket (embedded)', () => socketSendSuite());
describe('unread counts and opening chats (embedded)', () => unreadSuite());
describe('editing, deleting and reacting (embedded)', () => messageChangesSuite());
describe('editing, deleting and reacting over the socket (embedded)', () => socketChangesSuite());
describe('disappearing messages (embedded)', () => disappearingSuite());
describe('groups (embedded)', () => groupsSuite());
describe('privacy switches (embedded)', () => privacySuite());
describe('blocking (embedded)', () => blockingSuite());
describe('archived and pinned chats (embedded)', () => chatPrefsSuite());
describe('abuse reports and operators (embedded)', () => reportsSuite());
