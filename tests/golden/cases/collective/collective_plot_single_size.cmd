args: collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --plot /tmp/icx-golden-c.svg
exit: 2
