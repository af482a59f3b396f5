$CR trace summary tests/fixtures/traces/minimal.json
