args: collective allreduse --size 1GiB --gpus 8 --wire nvlink4
exit: 2
