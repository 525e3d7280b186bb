import { startE2E, signIn } from './e2e/harness';
const e2e = await startE2E();
try {
  const context = await e2e.newContext();
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, e2e.stack.demo.email, e2e.stack.demo.password);
  await page.goto('/dashboard/history');
  await page.getByTestId('history-row').first().waitFor();
  await page.screenshot({ path: '/tmp/history.png', fullPage: true });
  await page.getByRole('link', { name: /View results of/ }).first().click();
  await page.locator('[data-slot=chart] svg').first().waitFor();
  await page.waitForTimeout(4000);
  await page.screenshot({ path: '/tmp/results.png', fullPage: true });
  await page.locator('section').nth(1).screenshot({ path: '/tmp/results-charts.png' });
  console.log(await page.locator('section').nth(1).locator('svg .recharts-bar-rectangle, svg .recharts-scatter-symbol').count());
  await page.getByRole('button', { name: /Raw Responses/ }).click();
  await page.getByRole('button', { name: /View full response/ }).first().click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/response-dialog.png' });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Share Results' }).click();
  await page.getByRole('switch', { name: 'Public sharing' }).click();
  const link = await page.getByLabel('Shareable link').inputValue();
  await page.screenshot({ path: '/tmp/share-dialog.png' });
  const visitor = await (await e2e.newContext()).newPage();
  await visitor.setViewportSize({ width: 1280, height: 900 });
  await visitor.goto(link);
  await visitor.getByRole('list', { name: 'Model rankings' }).waitFor();
  await visitor.waitForTimeout(5500);
  await visitor.screenshot({ path: '/tmp/shared.png', fullPage: true });
} finally {
  await e2e.close();
}
