args: gpus --catalog catalogs/scale_up_scale_out.json
exit: 2
