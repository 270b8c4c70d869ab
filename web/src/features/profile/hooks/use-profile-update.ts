import type { PublicUser } from '@veil/contracts';
import { useAppDispatch } from '../../../app/hooks.ts';
import { errorText } from '../../../lib/api-error.ts';
import { profileChanged } from '../../../lib/session.slice.ts';
import { storeUser } from '../../../lib/storage.ts';
import { useUpdateProfileMutation } from '../api/profile.api.ts';

export type UpdateOutcome = { ok: true } | { ok: false; detail: string };

/** Saves username and picture, then keeps the stored user record (`data`) and the nav in step. */
export const useProfileUpdate = () => {
  const [update, { isLoading }] = useUpdateProfileMutation();
  const dispatch = useAppDispatch();

  const save = async (username: string, picture: File | null): Promise<UpdateOutcome> => {
    const form = new FormData();
    form.append('username', username.trim());
    if (picture) form.append('profilePicture', picture);
    try {
      const user: PublicUser = await update(form).unwrap();
      storeUser(user);
      dispatch(profileChanged(user));
      return { ok: true };
    } catch (failure) {
      return { ok: false, detail: errorText(failure) };
    }
  };

  return { save, saving: isLoading };
};
