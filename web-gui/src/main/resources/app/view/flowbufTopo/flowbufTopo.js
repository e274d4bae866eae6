// SPDX-License-Identifier: Apache-2.0
// FlowBuf overlay for ONOS's (legacy) topology view. The server side
// (FlowBufTopoMessageHandler) pushes highlights and the model while the
// overlay is active; the details-panel buttons pause the flows arriving on
// the selected device's first host port, or resume the buffer holding them.
// Key C picks a latency-critical flow (the topology view keeps its own keys,
// L among them, and ignores an overlay's that clash): the server highlights
// its primary and backup paths and shows its record in the details panel;
// Esc clears it.
(function () {
    'use strict';

    var $log, tov, wss, flash;
    var latest = {buffers: [], intents: []};
    var selectedDevice = null;
    var shownFlow = 0;

    function pauseHere(data) {
        selectedDevice = data.id;
        var port = window.prompt('Pause flows arriving on port of ' + data.id + ':', '1');
        var src = window.prompt('IPv4 source (CIDR; empty: every IPv4 packet):', '');
        var body = {deviceId: data.id, port: parseInt(port, 10), filter: {}};
        if (src) {
            body.filter.ipv4Src = src.indexOf('/') < 0 ? src + '/32' : src;
        } else if (window.confirm('Pause every IPv4 packet arriving on port ' + port + ' of '
                                  + data.id + '?')) {
            // The API takes a filter that names no field only when it says so.
            body.filter.all = true;
        } else {
            return;
        }
        wss.sendEvent('flowbufPause', body);
    }

    function resumeHere(data) {
        var paused = FlowBufModel.pausedFlows(latest).filter(function (p) {
            return p.deviceId === data.id;
        });
        if (!paused.length) {
            flash.flash('No paused flow on ' + data.id);
            return;
        }
        var port = window.prompt('Resume ' + paused[0].bufferId + ' towards port:',
                                 String(paused[0].port));
        wss.sendEvent('flowbufResume', {deviceId: data.id, port: parseInt(port, 10),
                                        filter: paused[0].filter,
                                        bufferId: paused[0].bufferId});
    }

    function pickFlow() {
        var flows = latest.congestion || [];
        if (!flows.length) {
            flash.flash('No latency-critical flow');
            return;
        }
        var rows = FlowBufModel.ccRows(latest);
        var next = rows.filter(function (r) { return r.id > shownFlow; })[0] || rows[0];
        var answer = window.prompt('Show the paths of latency-critical flow:\n'
            + rows.map(function (r) {
                return r.id + ': ' + r.hosts + ' (' + r.mode + ', ' + r.switchOvers
                    + ' switch-overs)';
            }).join('\n'), String(next.id));
        if (answer === null) {
            return;
        }
        if (!/^\s*\d+\s*$/.test(answer)) {
            flash.flash('FlowBuf: a flow id is a number, not "' + answer + '"');
            return;
        }
        shownFlow = parseInt(answer, 10);
        wss.sendEvent('flowbufCcSelect', {id: shownFlow});
    }

    function clearFlow() {
        if (!shownFlow) {
            return false;
        }
        shownFlow = 0;
        wss.sendEvent('flowbufCcSelect', {});
        return true;
    }

    // The view clears its own link classes (the flavours) before each
    // highlights message, not an overlay's: the highlights that follow each
    // model put ours back where they still hold.
    function clearPathClasses() {
        d3.selectAll('#ov-topo svg .link').classed('flowbuf-cc-primary flowbuf-cc-backup', false);
    }

    var overlay = {
        overlayId: 'flowbuf-overlay',
        glyphId: 'm_disjointPaths',
        tooltip: 'FlowBuf: buffers, paused flows, latency-critical paths',
        activate: function () { wss.sendEvent('flowbufStart'); },
        deactivate: function () {
            wss.sendEvent('flowbufStop');
            clearPathClasses();
        },
        // ONOS 2.7's glyph library has 'play' but no pause glyph (and no
        // 'm_pause' or 'm_play': buttons naming those were drawn blank):
        // the overlay brings its own, named '*pause' ('flowbuf-overlay-pause').
        glyphs: {
            pause: {vb: '0 0 10 10', d: 'M2.5,1.5h2v7h-2zM5.5,1.5h2v7h-2z'}
        },
        buttons: {
            flowbufPause: {gid: '*pause', tt: 'Pause a flow into a buffer', cb: pauseHere},
            flowbufResume: {gid: 'play', tt: 'Resume the paused flow', cb: resumeHere}
        },
        keyBindings: {
            C: {cb: pickFlow, tt: 'Show a latency-critical flow\'s primary and backup paths',
                gid: 'm_disjointPaths'},
            _keyOrder: ['C']
        },
        hooks: {
            escape: clearFlow
        }
    };

    angular.module('ovFlowbufTopo', [])
        .run(['$log', 'TopoOverlayService', 'WebSocketService', 'FlashService',
            function (_$log_, _tov_, _wss_, _flash_) {
                $log = _$log_;
                tov = _tov_;
                wss = _wss_;
                flash = _flash_;
                wss.bindHandlers({
                    flowbufModel: function (model) {
                        latest = model;
                        clearPathClasses();
                    },
                    flowbufError: function (e) { flash.flash('FlowBuf: ' + e.message); }
                });
                tov.register(overlay);
                $log.debug('FlowBuf topology overlay registered');
            }]);
}());
