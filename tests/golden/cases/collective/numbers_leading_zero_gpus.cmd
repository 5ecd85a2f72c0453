args: collective all-reduce --size 1GiB --gpus 016 --wire ib-ndr
exit: 0
