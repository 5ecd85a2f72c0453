args: collective all-gather --size 1KiB:1MiB --gpus 8 --wire nvlink3 --format csv
exit: 0
