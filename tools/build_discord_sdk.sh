#!/usr/bin/env bash
# Rebuild the vendored Discord Embedded App SDK (bot/webapp/static/discord-sdk.js) from npm, pinned: `make discord-sdk`.
# The Activity's page loads it from the bot's own origin (Discord's proxy allows no CDN). One IIFE file that sets
# window.DiscordSDKBundle.DiscordSDK; the licences of the SDK and of what it bundles go to discord-sdk.LICENSE.txt.
set -euo pipefail
SDK_VERSION=2.5.0
ESBUILD_VERSION=0.28.2
out="$(cd "$(dirname "$0")/.." && pwd)/bot/webapp/static"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "@discord/embedded-app-sdk@$SDK_VERSION" "esbuild@$ESBUILD_VERSION"
echo 'export { DiscordSDK } from "@discord/embedded-app-sdk";' >entry.js
node_modules/.bin/esbuild entry.js --bundle --format=iife --global-name=DiscordSDKBundle --minify --target=es2020 \
  --legal-comments=none --log-level=warning --outfile="$out/discord-sdk.js" \
  --banner:js="/* @discord/embedded-app-sdk $SDK_VERSION (MIT) with the packages it bundles; licences: discord-sdk.LICENSE.txt; rebuilt by make discord-sdk */"
{
  echo "The licences of bot/webapp/static/discord-sdk.js: @discord/embedded-app-sdk $SDK_VERSION and the packages its"
  echo "published build bundles. Rebuilt by tools/build_discord_sdk.sh (make discord-sdk)."
  for pkg in @discord/embedded-app-sdk zod uuid eventemitter3 big-integer decimal.js-light lodash.transform; do
    dir="node_modules/$pkg"
    version=$(node -p "require('./$dir/package.json').version")
    licence=$(find "$dir" -maxdepth 1 -iname 'licen[cs]e*' | head -n 1)
    printf '\n==================== %s %s ====================\n\n' "$pkg" "$version"
    cat "$licence"
  done
} >"$out/discord-sdk.LICENSE.txt"
echo "built $out/discord-sdk.js ($(wc -c <"$out/discord-sdk.js") bytes)"
