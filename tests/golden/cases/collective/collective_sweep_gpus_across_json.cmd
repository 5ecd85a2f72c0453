args: collective all-reduce --size 1GiB --sweep gpus=8:32:x2 --system dgx-h100 --json
exit: 0
