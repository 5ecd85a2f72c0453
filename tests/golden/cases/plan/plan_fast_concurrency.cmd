args: plan --model 70b --ttft 2s --tpot 50ms --concurrency 64 --input 1000 --output 1000 --fast --system aws-p5,aws-p4d
exit: 0
