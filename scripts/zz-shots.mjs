import { chromium } from "playwright";
const base = "http://127.0.0.1:3200";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const page = await ctx.newPage();
await page.goto(base + "/setup");
if (page.url().includes("/setup")) {
  const inputs = page.locator("input");
  const n = await inputs.count();
  for (let i = 0; i < n; i++) {
    const type = await inputs.nth(i).getAttribute("type");
    const name = (await inputs.nth(i).getAttribute("name")) ?? "";
    if (type === "password") await inputs.nth(i).fill("correct horse battery staple");
    else if (name.toLowerCase().includes("display")) await inputs.nth(i).fill("Lead Dev");
    else await inputs.nth(i).fill("lead");
  }
  await page.locator("button[type=submit]").click();
  await page.waitForTimeout(2000);
}
if (!page.url().includes("/setup")) {
  await page.goto(base + "/login");
  await page.locator("input").first().fill("lead");
  await page.locator("input[type=password]").fill("correct horse battery staple");
  await page.locator("button[type=submit]").click();
  await page.waitForTimeout(1500);
}
const shots = process.argv.slice(2);
for (const s of shots) {
  const [name, url, wait] = s.split("|");
  await page.goto(base + url);
  await page.waitForTimeout(Number(wait ?? 2500));
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
  console.log("shot", name, page.url());
}
await browser.close();
