/** A test body run on a fresh fixture from `make`, torn down afterwards whatever happened. */
export const withFixture =
  <F extends { teardown(): Promise<void> }>(make: () => Promise<F>, body: (fixture: F) => Promise<void>) =>
  async (): Promise<void> => {
    const fixture = await make();
    try {
      await body(fixture);
    } finally {
      await fixture.teardown();
    }
  };
