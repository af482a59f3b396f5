$CR check --measured-json tests/fixtures/check/missing.json
