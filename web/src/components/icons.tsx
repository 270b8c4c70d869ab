import type { SVGProps } from 'react';

/** Small inline icons (stroke style, currentColor) so no icon font or image request is needed. */
const Svg = ({ children, ...props }: SVGProps<SVGSVGElement>) => (
  <svg
    viewBox="0 0 24 24"
    width="20"
    height="20"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    {...props}
  >
    {children}
  </svg>
);

export const LoginIcon = () => (
  <Svg>
    <path d="M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4" />
    <path d="M10 17l5-5-5-5" />
    <path d="M15 12H3" />
  </Svg>
);
export const LogoutIcon = () => (
  <Svg>
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
    <path d="M16 17l5-5-5-5" />
    <path d="M21 12H9" />
  </Svg>
);
export const RegisterIcon = () => (
  <Svg>
    <circle cx="9" cy="8" r="4" />
    <path d="M2 21v-1a6 6 0 0 1 12 0v1" />
    <path d="M19 8v6M16 11h6" />
  </Svg>
);
export const ChatsIcon = () => (
  <Svg>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 21l1.9-5.4A8 8 0 1 1 21 12z" />
  </Svg>
);
export const UsersIcon = () => (
  <Svg>
    <circle cx="9" cy="8" r="4" />
    <path d="M2 21v-1a6 6 0 0 1 12 0v1" />
    <path d="M16 4a4 4 0 0 1 0 8M22 21v-1a6 6 0 0 0-4-5.6" />
  </Svg>
);
export const SunIcon = () => (
  <Svg>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
  </Svg>
);
export const MoonIcon = () => (
  <Svg>
    <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
  </Svg>
);
export const PlusIcon = () => (
  <Svg>
    <path d="M12 5v14M5 12h14" />
  </Svg>
);
export const CloseIcon = () => (
  <Svg>
    <path d="M18 6L6 18M6 6l12 12" />
  </Svg>
);
export const SendIcon = () => (
  <Svg className="icon--directional">
    <path d="M22 2L11 13" />
    <path d="M22 2l-7 20-4-9-9-4 20-7z" />
  </Svg>
);
export const ReplyIcon = () => (
  <Svg className="icon--directional">
    <path d="M9 14L4 9l5-5" />
    <path d="M20 20v-7a4 4 0 0 0-4-4H4" />
  </Svg>
);
export const ForwardIcon = () => (
  <Svg className="icon--directional" width="14" height="14">
    <path d="M15 14l5-5-5-5" />
    <path d="M4 20v-7a4 4 0 0 1 4-4h12" />
  </Svg>
);
export const TimerIcon = () => (
  <Svg width="12" height="12">
    <circle cx="12" cy="13" r="8" />
    <path d="M12 9v4l2 2M10 2h4" />
  </Svg>
);
export const BackIcon = () => (
  <Svg className="icon--directional">
    <path d="M15 18l-6-6 6-6" />
  </Svg>
);
export const ArrowDownIcon = () => (
  <Svg>
    <path d="M12 5v14M5 12l7 7 7-7" />
  </Svg>
);
export const SearchIcon = () => (
  <Svg>
    <circle cx="11" cy="11" r="7" />
    <path d="M21 21l-4.3-4.3" />
  </Svg>
);
export const LockIcon = () => (
  <Svg>
    <rect x="4" y="11" width="16" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </Svg>
);
export const BoltIcon = () => (
  <Svg>
    <path d="M13 2L3 14h9l-1 8 10-12h-9l1-8z" />
  </Svg>
);
export const ShieldIcon = () => (
  <Svg>
    <path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" />
  </Svg>
);
/** One tick (sent) or two (seen); drawn as one icon so the pair reads as a unit. */
export const TickIcon = ({ double }: { double: boolean }) => (
  <Svg width="18" height="16" viewBox="0 0 18 16">
    {double ? (
      <>
        <path d="M1 8.5l3.5 3.5L12 4" />
        <path d="M8 12L16 4" />
      </>
    ) : (
      <path d="M3 8.5l3.5 3.5L14 4" />
    )}
  </Svg>
);
export const MoreIcon = () => (
  <Svg>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </Svg>
);
export const PaperclipIcon = () => (
  <Svg>
    <path d="M21 12.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l9.2-9.2a3.7 3.7 0 0 1 5.2 5.2l-9.2 9.2a1.8 1.8 0 0 1-2.6-2.6l8.5-8.5" />
  </Svg>
);
export const PhoneIcon = () => (
  <Svg>
    <path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1 1 .4 1.9.7 2.8a2 2 0 0 1-.5 2.1L8 9.9a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.8.7a2 2 0 0 1 1.7 2Z" />
  </Svg>
);
export const VideoIcon = () => (
  <Svg>
    <path d="M23 7l-7 5 7 5V7Z" />
    <rect x="1" y="5" width="15" height="14" rx="2" />
  </Svg>
);
