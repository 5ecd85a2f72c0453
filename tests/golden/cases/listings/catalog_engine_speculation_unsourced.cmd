args: engines --catalog catalogs/engine_speculation_unsourced.json
exit: 2
