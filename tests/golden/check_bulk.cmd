$CR check --measured-json tests/fixtures/check/bulk_h200.json
