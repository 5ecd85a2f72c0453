args: plan --model 70b --ttft p99:2s --tpot 50ms --concurrency 64 --fast --system aws-p5
exit: 2
