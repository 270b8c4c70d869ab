import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { linkClosed, selectLinkOpen } from '../../keys/index.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { LinkFromAnotherBrowserDialog } from './link-from-another-browser-dialog.tsx';

/** "Link from another browser", for whatever page is open, once the restore screen asked for it. */
export const DeviceLinkCenter = () => {
  const dispatch = useAppDispatch();
  const open = useAppSelector(selectLinkOpen);
  const user = useAppSelector(selectCurrentUser);
  if (!open || !user) return null;
  return (
    <LinkFromAnotherBrowserDialog key={user._id} userId={user._id} onClose={() => dispatch(linkClosed())} />
  );
};
