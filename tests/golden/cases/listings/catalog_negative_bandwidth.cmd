args: links --catalog catalogs/negative_bandwidth.json
exit: 2
