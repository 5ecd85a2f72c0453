args: offload --model 70b --gpu mi300x --gpus 2 --tuning tuned --hbm-fraction 0.6 --json
exit: 0
