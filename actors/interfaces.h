// Every daemon's typed interface (handles.h) with the messages it takes
// (messages.h, node_messages.h, queue_messages.h): what an actor that
// sends includes.
#pragma once

#include "actors/ha_messages.h"
#include "actors/handles.h"
#include "actors/messages.h"
#include "actors/node_messages.h"
#include "actors/queue_messages.h"
