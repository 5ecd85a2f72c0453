args: systems --catalog catalogs/nvme_shared.json
exit: 2
