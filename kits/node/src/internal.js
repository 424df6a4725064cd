// What the kit's own tests read of a running mock that its API does not offer: mock → { readyFile(), keyFile }.
export const internals = new WeakMap();
