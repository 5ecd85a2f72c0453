args: collective all-reduce --size 1GiB --gpus 72 --wire nvlink5 --algo nvls --catalog catalogs/calibrated_nvlink5.json
exit: 0
