args: models --catalog catalogs/sparse_without_latent.json
exit: 2
