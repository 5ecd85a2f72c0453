args: collective all-reduce --size 1GiB --gpus 8 --wire infinity-fabric --json
exit: 0
