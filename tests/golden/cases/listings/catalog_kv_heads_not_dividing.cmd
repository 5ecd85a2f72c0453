args: models --catalog catalogs/kv_heads_not_dividing.json
exit: 2
