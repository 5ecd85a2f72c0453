args: plan --model 70b --input 2048 --output 256 --ttft 2s --tpot 50ms --rate 5 --system mi300x-8,dgx-h100 --tuning tuned
exit: 0
