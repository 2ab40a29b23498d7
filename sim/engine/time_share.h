#pragma once
// How time-slicing divides one device among the processes on it.
//
// CUDA time-slicing gives every process on a GPU an equal share of time (domain.md
// §3.3, §6.3); a process that needs less than its share leaves the rest to the others.
// That is max-min fairness over the processes' demands, a demand being the fraction of
// the device's time one process keeps busy when it runs alone (its duty cycle). Seed 003
// shows why demands matter: seven BERT fine-tunings time-shared on one A100 reach 151.2
// sequences/s together, more than one alone (119.78), because one alone leaves the GPU
// idle about a fifth of the time.

#include <span>
#include <vector>

namespace migsim {

// Max-min fair shares of a device's time (capacity 1) for `demands`, each in (0, 1].
// share[i] <= demands[i], sum(share) <= 1, and no process can gain without taking from
// one with a smaller or equal share. Deterministic for equal demands.
std::vector<double> MaxMinShares(std::span<const double> demands);

// CUDA MPS runs clients' kernels concurrently, each capped at 1/replicas of the SMs
// (the plugin's active thread percentage, domain.md §3.4): a client gets
// min(demand, 1/replicas) of the device, with no time-slice switching.
std::vector<double> MpsShares(std::span<const double> demands, int replicas);

// MPS clients each capped at `cap` of the device's SMs (a shared ResourceClaim's
// defaultActiveThreadPercentage / 100), where the caps may add up to more than the device
// (MPS allows it): each gets min(demand, cap) while the device has room, and max-min fair
// shares of it when the capped demands exceed it.
std::vector<double> CappedFairShares(std::span<const double> demands, double cap);

// Concurrent processes each capped at caps[i] of the device (a fractional GPU share's
// units held / units): share[i] = min(demands[i], caps[i]).
std::vector<double> CappedShares(std::span<const double> demands, std::span<const double> caps);

// The speed of process i relative to running alone on the device: its share over its
// demand, less `switch_overhead` (a fraction in [0, 1)) when it shares the device.
double TimeSlicedSpeed(double share, double demand, int processes, double switch_overhead);

}  // namespace migsim
