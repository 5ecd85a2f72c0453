args: engines --catalog catalogs/engine_memory_both.json
exit: 2
