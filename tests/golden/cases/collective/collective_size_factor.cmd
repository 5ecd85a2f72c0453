args: collective all-gather --size 1KiB:1GiB:x32 --gpus 8 --wire nvlink3
exit: 0
