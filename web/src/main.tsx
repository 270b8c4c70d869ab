import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n.ts'; // the language, and <html lang dir>, before the first render
import { AppProvider } from './app/provider.tsx';
import { readTheme } from './lib/storage.ts';
import './styles/theme.css';
import './styles/base.css';
import './styles/shell.css';
import './styles/forms.css';
import './styles/pages.css';
import './styles/chat-list.css';
import './styles/chat-window.css';
import './styles/message-actions.css';
import './styles/group-panel.css';
import './styles/group-info.css';
import './styles/key-backup.css';
import './styles/attachments.css';
import './styles/safety.css';
import './styles/reports.css';

// Before the first paint, so a dark-theme user never sees a white flash (the store agrees later).
document.documentElement.dataset.theme =
  readTheme() ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A German or Arabic reader's texts are a chunk of their own: the first render waits for them.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <AppProvider />
    </StrictMode>,
  ),
);
