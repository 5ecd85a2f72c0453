args: collective all-reduce --size 1GiB --gpus 16 --system aws-p5
exit: 0
