/** Leaves the app for the payment provider's checkout page (a module of its own so tests can stub it). */
export function redirectToCheckout(url: string): void {
  window.location.assign(url);
}
