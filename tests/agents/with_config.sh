#!/bin/sh
# Run config_agent.py under `lab probe --cmd`: write the config file it reads into the scratch
# HOME from the probe's ANTHROPIC_ variables, then run it with the probe's arguments.
set -e
mkdir -p "$HOME/.config/config-agent"
printf '{"base_url": "%s", "api_key": "%s"}\n' "$ANTHROPIC_BASE_URL" "$ANTHROPIC_API_KEY" \
    > "$HOME/.config/config-agent/config.json"
exec python "$(dirname "$0")/config_agent.py" "$@"
