args: offload --model 405b --system dgx-a100 --dtype fp32
exit: 2
